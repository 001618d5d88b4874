/* qgs.c: seawx's QGIS projects and layer definitions, and their layers
 * (see seawx/qgs.h). */
#include "seawx/qgs.h"

#include "seawx/iso8601.h"
#include "xml.h"

#include <string.h>

void swx_qgs_begin(FILE *f, const swx_qgs_frame *q)
{
    if (q->qlr) {
        fputs("<!DOCTYPE qgis-layer-definition>\n", f);
        if (q->comment)
            fprintf(f, "<!-- %s -->\n", q->comment);
        fputs("<qlr>\n  <layer-tree-group checked=\"Qt::Checked\" name=\"\" expanded=\"1\">\n", f);
        return;
    }
    fputs("<!DOCTYPE qgis PUBLIC 'http://mrcc.com/qgis.dtd' 'SYSTEM'>\n", f);
    if (q->comment)
        fprintf(f, "<!-- %s -->\n", q->comment);
    fputs("<qgis projectname=\"", f);
    swx_xml_put(f, q->name);
    fputs("\" version=\"3.22.0\">\n  <homePath path=\"\"/>\n  <title>", f);
    swx_xml_put(f, q->name);
    fprintf(f, "</title>\n  <projectCrs>%s</projectCrs>\n  <layer-tree-group>\n", q->srs);
}

void swx_qgs_layers(FILE *f, const swx_qgs_frame *q)
{
    fprintf(f, "  </layer-tree-group>\n  <%s>\n", q->qlr ? "maplayers" : "projectlayers");
}

void swx_qgs_end(FILE *f, const swx_qgs_frame *q)
{
    if (q->qlr) {
        fputs("  </maplayers>\n</qlr>\n", f);
        return;
    }
    fputs("  </projectlayers>\n", f);
    const int d = q->decimals;
    const double *v = q->view;
    fprintf(f,
            "  <mapcanvas name=\"theMapCanvas\" annotationsVisible=\"1\">\n"
            "    <units>%s</units>\n    <extent><xmin>%.*f</xmin><ymin>%.*f</ymin>"
            "<xmax>%.*f</xmax><ymax>%.*f</ymax></extent>\n    <rotation>0</rotation>\n"
            "    <destinationsrs>%s</destinationsrs>\n  </mapcanvas>\n"
            "  <ProjectViewSettings UseProjectScales=\"0\" rotation=\"0\">\n"
            "    <DefaultViewExtent xmin=\"%.*f\" ymin=\"%.*f\" xmax=\"%.*f\" ymax=\"%.*f\">%s"
            "</DefaultViewExtent>\n  </ProjectViewSettings>\n",
            q->units, d, v[0], d, v[1], d, v[2], d, v[3], q->srs, d, v[0], d, v[1], d, v[2], d,
            v[3], q->srs);
    fputs("  <properties>\n    <Paths><Absolute type=\"bool\">false</Absolute></Paths>\n"
          "    <SpatialRefSys><ProjectionsEnabled type=\"int\">1</ProjectionsEnabled>"
          "</SpatialRefSys>\n"
          "    <TemporalControllerWidget><NavigationMode type=\"int\">1</NavigationMode>"
          "</TemporalControllerWidget>\n  </properties>\n",
          f);
    if (q->step > 0) {
        /* QGIS's units of a time step: hours, minutes or seconds, whole */
        const int64_t s = q->step;
        const char *unit = s % 3600 == 0 ? "h" : s % 60 == 0 ? "min" : "s";
        long n = (long)(s / (s % 3600 == 0 ? 3600 : s % 60 == 0 ? 60 : 1));
        char a[SWX_ISO8601_LEN], b[SWX_ISO8601_LEN];
        swx_iso8601_format(a, q->t0);
        swx_iso8601_format(b, q->t1);
        fprintf(f,
                "  <ProjectTimeSettings timeStep=\"%ld\" timeStepUnit=\"%s\" frameRate=\"1\" "
                "cumulativeTemporalRange=\"0\">\n    <TemporalRange><start>%s</start><end>%s"
                "</end></TemporalRange>\n  </ProjectTimeSettings>\n",
                n, unit, a, b);
    }
    fputs("</qgis>\n", f);
}

static void indent(FILE *f, int depth)
{
    fprintf(f, "%*s", 2 * (depth + 1), "");
}

void swx_qgs_group_begin(FILE *f, int depth, const char *name, int checked)
{
    indent(f, depth);
    fprintf(f, "<layer-tree-group checked=\"Qt::%s\" name=\"", checked ? "Checked" : "Unchecked");
    swx_xml_put(f, name);
    fputs("\" expanded=\"1\">\n", f);
}

void swx_qgs_group_end(FILE *f, int depth)
{
    indent(f, depth);
    fputs("</layer-tree-group>\n", f);
}

void swx_qgs_tree_layer(FILE *f, int depth, const swx_qgs_layer *l)
{
    indent(f, depth);
    fputs("<layer-tree-layer checked=\"Qt::Checked\" name=\"", f);
    swx_xml_put(f, l->name);
    fprintf(f, "\" expanded=\"%d\" providerKey=\"", l->expanded != 0);
    swx_xml_put(f, l->provider);
    fputs("\" id=\"", f);
    swx_xml_put(f, l->id);
    fputs("\" source=\"", f);
    swx_xml_put(f, l->source);
    fputs("\"/>\n", f);
}

/* "<tag>text</tag>" on a line of its own, the text escaped. */
static void element(FILE *f, const char *tag, const char *text)
{
    fprintf(f, "      <%s>", tag);
    swx_xml_put(f, text);
    fprintf(f, "</%s>\n", tag);
}

void swx_qgs_maplayer_begin(FILE *f, const swx_qgs_layer *l)
{
    fprintf(f, "    <maplayer type=\"%s\"", l->type);
    if (l->geometry)
        fprintf(f, " geometry=\"%s\" wkbType=\"%s\"", l->geometry, l->wkb);
    if (l->legend && *l->legend) {
        fputs(" legendPlaceholderImage=\"", f);
        swx_xml_put(f, l->legend);
        fputc('"', f);
    }
    fputs(">\n", f);
    element(f, "id", l->id);
    element(f, "datasource", l->source);
    element(f, "layername", l->name);
    fprintf(f, "      <srs>%s</srs>\n", l->srs);
    /* What each provider reads beside its name: OGR the files' encoding,
     * MDAL the unit of its times (3: hours). */
    const char *p = l->provider;
    fprintf(f, "      <provider%s>%s</provider>\n",
            strcmp(p, "ogr") == 0    ? " encoding=\"UTF-8\""
            : strcmp(p, "mdal") == 0 ? " time-unit=\"3\""
                                     : "",
            p);
    if (l->ranged) {
        char a[SWX_ISO8601_LEN], b[SWX_ISO8601_LEN];
        swx_iso8601_format(a, l->start);
        swx_iso8601_format(b, l->end);
        fprintf(f,
                "      <temporal enabled=\"1\" mode=\"0\" fetchMode=\"0\">\n"
                "        <fixedRange><start>%s</start><end>%s</end></fixedRange>\n"
                "      </temporal>\n",
                a, b);
    } else if (l->temporal) {
        fprintf(f, "      %s\n", l->temporal);
    }
}

void swx_qgs_maplayer_end(FILE *f)
{
    fputs("    </maplayer>\n", f);
}

void swx_qgs_maplayer(FILE *f, const swx_qgs_layer *l, const char *style)
{
    swx_qgs_maplayer_begin(f, l);
    const char *a = style ? strstr(style, "<renderer-v2") : NULL;
    const char *b = a ? strstr(a, "</renderer-v2>") : NULL;
    if (b) {
        fputs("      ", f);
        fwrite(a, 1, (size_t)(b - a) + strlen("</renderer-v2>"), f);
        fputc('\n', f);
    }
    swx_qgs_maplayer_end(f);
}
