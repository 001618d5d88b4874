/* qgs.c: the frame of seawx's QGIS projects (see seawx/qgs.h). */
#include "seawx/qgs.h"

#include "seawx/iso8601.h"
#include "xml.h"

void swx_qgs_begin(FILE *f, const swx_qgs_frame *q)
{
    fputs("<!DOCTYPE qgis PUBLIC 'http://mrcc.com/qgis.dtd' 'SYSTEM'>\n", f);
    if (q->comment)
        fprintf(f, "<!-- %s -->\n", q->comment);
    fputs("<qgis projectname=\"", f);
    swx_xml_put(f, q->name);
    fputs("\" version=\"3.22.0\">\n  <homePath path=\"\"/>\n  <title>", f);
    swx_xml_put(f, q->name);
    fprintf(f, "</title>\n  <projectCrs>%s</projectCrs>\n  <layer-tree-group>\n", q->srs);
}

void swx_qgs_end(FILE *f, const swx_qgs_frame *q)
{
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
