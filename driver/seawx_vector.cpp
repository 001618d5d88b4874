/*
 * seawx_vector.cpp: storms as OGR layers. "SEAWX:storms[,filters]" reads the
 * service's /storm/json (every page), "SEAWX:kmz,path=FILE" a storm KMZ file;
 * both give the layers storms, track_points, forecast_points, forecast_lines,
 * wind_radii, cones, danger_areas and wind_swaths with the typed fields of
 * lib/storms/storm_feature.c. docs/storms.md documents the options.
 */
#include "seawx_gdal.h"

#include "cpl_string.h"
#include "ogr_swq.h"
#include "ogrsf_frmts.h"

extern "C" {
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/kmz.h"
#include "seawx/storm.h"
#include "seawx/storm_geojson.h"
}

#include <cmath>
#include <cstring>
#include <memory>

/* Connection string keys besides the storm filters, which are the core's
 * (swx_storm_query_keys). native_data: ogr2ogr passes it to every source;
 * nothing to do with it here, and not listed in messages. */
static const char *const apszServiceKeys[] = {"url", "timeout", "retries", "native_data", nullptr};

static bool InList(const char *const *papsz, const char *pszKey)
{
    for (; *papsz; ++papsz)
        if (EQUAL(*papsz, pszKey))
            return true;
    return false;
}

/* "status, id, ..., max_storms, url, timeout, retries": every key a
 * SEAWX:storms connection string takes, for the unknown-option message. */
static CPLString StormOptionList()
{
    CPLString os;
    for (const char *const *p = swx_storm_query_keys(); *p; ++p)
        os += CPLString(os.empty() ? "" : ", ") + *p;
    for (const char *const *p = apszServiceKeys; *p; ++p)
        if (!EQUAL(*p, "native_data"))
            os += CPLString(", ") + *p;
    return os;
}

/* Fills a query from key=value pairs through the core's one reading of the
 * filters; strings point into the list. */
static int QueryFrom(const CPLStringList &aos, swx_storm_query *q)
{
    swx_storm_query_init(q);
    for (const char *const *p = swx_storm_query_keys(); *p; ++p) {
        const char *v = aos.FetchNameValue(*p);
        if (v) {
            int rc = swx_storm_query_set(q, *p, v);
            if (rc != 0)
                return rc;
        }
    }
    return swx_storm_query_check(q);
}

void SEAWXStormListFree::operator()(swx_storm_list *psList) const
{
    swx_storm_list_clear(psList);
    delete psList;
}

void SEAWXSRSRelease::operator()(OGRSpatialReference *poSRS) const
{
    poSRS->Release();
}

/* ---- the dataset ---- */

GDALDataset *SEAWXStormDataset::Open(GDALOpenInfo *poOpenInfo, SEAWXOptions &oOpts)
{
    if (!(poOpenInfo->nOpenFlags & GDAL_OF_VECTOR))
        return nullptr;
    const bool bKMZ = EQUAL(oOpts.Kind(), "kmz");
    swx_connstr *cs = oOpts.Raw();
    CPLStringList aosQuery;
    for (size_t i = 0; i < swx_connstr_count(cs); i++) {
        const char *k = swx_connstr_key(cs, i), *v = swx_connstr_value(cs, i);
        const bool bFilter = !bKMZ && InList(swx_storm_query_keys(), k);
        if (bKMZ ? !EQUAL(k, "path") && !EQUAL(k, "native_data")
                 : !bFilter && !InList(apszServiceKeys, k)) {
            if (bKMZ)
                CPLError(CE_Failure, CPLE_OpenFailed,
                         "SEAWX:kmz: unknown option '%s'; the only option is path=FILE", k);
            else
                CPLError(CE_Failure, CPLE_OpenFailed,
                         "SEAWX:storms: unknown option '%s'; options are %s", k,
                         StormOptionList().c_str());
            return nullptr;
        }
        if (bFilter && v && *v)
            aosQuery.SetNameValue(k, v);
    }
    /* The constructor is private: make_unique cannot reach it. */
    std::unique_ptr<SEAWXStormDataset> poDS(new SEAWXStormDataset());
    poDS->m_bKMZ = bKMZ;
    if (bKMZ) {
        const char *pszPath = oOpts.Get("path");
        if (!pszPath) {
            CPLError(CE_Failure, CPLE_OpenFailed,
                     "SEAWX:kmz needs the file: SEAWX:kmz,path=storms.kmz");
            return nullptr;
        }
        poDS->m_osPath = pszPath;
        /* Read now, so that a bad file fails the open with the core's reason. */
        if (!poDS->Storms(CPLStringList()))
            return nullptr;
    } else {
        swx_storm_query q;
        if (QueryFrom(aosQuery, &q) != 0) {
            SEAWXReportError(CE_Failure, "invalid storm filter");
            return nullptr;
        }
        poDS->m_aosQuery = aosQuery;
        if (!(poDS->m_psClient = SEAWXCreateClient(oOpts)))
            return nullptr;
        /* One storm's page now, so that a rejected key, a refused filter or a
         * failing service fails the open: ogr2ogr then writes no empty output. */
        q.limit = 1;
        q.max_storms = 1;
        swx_storm_list oProbe{};
        int rc = swx_storm_fetch(nullptr, poDS->m_psClient, &q, swx_storm_list_add, &oProbe);
        swx_storm_list_clear(&oProbe);
        if (rc != 0) {
            SEAWXReportError(CE_Failure, "cannot read the storms");
            return nullptr;
        }
    }
    poDS->m_poSRS.reset(new OGRSpatialReference()); /* reference counted: Release()d */
    poDS->m_poSRS->SetWellKnownGeogCS("WGS84");
    poDS->m_poSRS->importFromEPSG(4326);
    poDS->m_poSRS->SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
    for (int k = 0; k < SWX_SK_COUNT; k++)
        poDS->m_apoLayers.push_back(std::make_unique<SEAWXStormLayer>(poDS.get(), k));
    poDS->SetDescription(poOpenInfo->pszFilename);
    return poDS.release(); /* GDAL owns it from here */
}

SEAWXStormDataset::~SEAWXStormDataset()
{
    /* The layers go first: their definitions refer to the SRS. */
    m_apoLayers.clear();
    m_psCached.reset();
    m_poSRS.reset();
    swx_client_free(m_psClient);
}

OGRLayer *SEAWXStormDataset::GetLayer(int i)
{
    return i >= 0 && i < GetLayerCount() ? m_apoLayers[i].get() : nullptr;
}

int SEAWXStormDataset::TestCapability(const char *)
{
    return FALSE;
}

const swx_storm_list *SEAWXStormDataset::Storms(const CPLStringList &aosExtra)
{
    CPLStringList aos(m_aosQuery);
    for (int i = 0; i < aosExtra.size(); i++) {
        char *pszKey = nullptr;
        const char *pszValue = CPLParseNameValue(aosExtra[i], &pszKey);
        if (pszKey)
            aos.SetNameValue(pszKey, pszValue);
        CPLFree(pszKey);
    }
    aos.Sort();
    CPLString osKey;
    for (int i = 0; i < aos.size(); i++)
        osKey += CPLString(aos[i]) + "&";
    if (m_psCached && osKey == m_osCachedKey)
        return m_psCached.get();
    if (m_bCachedFailed && osKey == m_osCachedKey)
        return nullptr;
    m_psCached.reset();
    m_osCachedKey = osKey;
    m_bCachedFailed = false;
    std::unique_ptr<swx_storm_list, SEAWXStormListFree> psList(new swx_storm_list());
    int rc;
    if (m_bKMZ) {
        rc = swx_kmz_read_storms(m_osPath.c_str(), swx_storm_list_add, psList.get());
    } else {
        swx_storm_query q;
        rc = QueryFrom(aos, &q);
        if (rc == 0)
            rc = swx_storm_fetch(nullptr, m_psClient, &q, swx_storm_list_add, psList.get());
    }
    if (rc != 0) {
        SEAWXReportError(CE_Failure, "cannot read the storms");
        m_bCachedFailed = true;
        return nullptr;
    }
    m_psCached = std::move(psList);
    return m_psCached.get();
}

/* ---- the layer ---- */

/* Every layer has one geometry type, its kind's shape as Multi*, so that
 * QGIS opens each with no sublayer chooser and GeoPackage tables are typed. */
static OGRwkbGeometryType LayerGeomType(int nKind)
{
    switch (swx_storm_kind_get(nKind)->shape) {
    case SWX_SHAPE_POINT:
        return wkbMultiPoint;
    case SWX_SHAPE_LINE:
        return wkbMultiLineString;
    case SWX_SHAPE_POLYGON:
        break;
    }
    return wkbMultiPolygon;
}

SEAWXStormLayer::SEAWXStormLayer(SEAWXStormDataset *poDS, int nKind)
    : m_poDS(poDS), m_nKind(nKind), m_poDefn(new OGRFeatureDefn(swx_storm_kind_layer(nKind)))
{
    SetDescription(m_poDefn->GetName());
    m_poDefn->Reference();
    m_poDefn->SetGeomType(LayerGeomType(nKind));
    m_poDefn->GetGeomFieldDefn(0)->SetSpatialRef(poDS->m_poSRS.get());
    const swx_storm_field *psFields = nullptr;
    size_t n = swx_storm_fields(&psFields, nKind);
    for (size_t i = 0; i < n; i++) {
        OGRFieldType eType = OFTString;
        OGRFieldSubType eSub = OFSTNone;
        switch (psFields[i].type) {
        case SWX_SF_STRING:
            eType = OFTString;
            break;
        case SWX_SF_INT:
            eType = OFTInteger;
            break;
        case SWX_SF_REAL:
            eType = OFTReal;
            break;
        case SWX_SF_DATETIME:
            eType = OFTDateTime;
            break;
        case SWX_SF_DATE:
            eType = OFTDate;
            break;
        case SWX_SF_BOOL:
            eType = OFTInteger;
            eSub = OFSTBoolean;
            break;
        }
        OGRFieldDefn oField(psFields[i].name, eType);
        oField.SetSubType(eSub);
        m_poDefn->AddFieldDefn(&oField);
    }
    swx_storm_geo_new(&m_psGeo);
}

SEAWXStormLayer::~SEAWXStormLayer()
{
    m_apoPending.clear();
    swx_storm_geo_free(m_psGeo);
    m_poDefn->Release();
}

void SEAWXStormLayer::ResetReading()
{
    m_apoPending.clear();
    m_iPending = 0;
    m_iStorm = 0;
    m_nNextFID = 1;
}

const swx_storm_list *SEAWXStormLayer::Storms()
{
    return m_poDS->Storms(m_aosPushed);
}

static std::unique_ptr<OGRLinearRing> Ring(const double *xy, size_t n)
{
    auto poRing = std::make_unique<OGRLinearRing>();
    poRing->setNumPoints(static_cast<int>(n), FALSE);
    for (size_t i = 0; i < n; i++)
        poRing->setPoint(static_cast<int>(i), xy[2 * i], xy[2 * i + 1]);
    return poRing;
}

static std::unique_ptr<OGRLineString> Line(const double *xy, size_t n)
{
    auto poLine = std::make_unique<OGRLineString>();
    poLine->setNumPoints(static_cast<int>(n), FALSE);
    for (size_t i = 0; i < n; i++)
        poLine->setPoint(static_cast<int>(i), xy[2 * i], xy[2 * i + 1]);
    return poLine;
}

/* The geometry of a feature as its layer's type (LayerGeomType): a point
 * in a layer of lines (a storm whose track is one position) is none (its
 * point is in track_points). */
static std::unique_ptr<OGRGeometry> Geometry(const swx_storm_feature *f)
{
    const double *xy = f->xy;
    switch (f->geom) {
    case SWX_GEOM_NONE:
        return nullptr;
    case SWX_GEOM_POINT: {
        if (swx_storm_kind_get(f->kind)->shape != SWX_SHAPE_POINT)
            return nullptr;
        auto poMulti = std::make_unique<OGRMultiPoint>();
        poMulti->addGeometryDirectly(new OGRPoint(xy[0], xy[1]));
        return poMulti;
    }
    case SWX_GEOM_LINESTRING:
    case SWX_GEOM_MULTILINESTRING: {
        auto poMulti = std::make_unique<OGRMultiLineString>();
        for (size_t i = 0; i < f->nparts; i++) {
            poMulti->addGeometryDirectly(Line(xy, f->part_len[i]).release());
            xy += 2 * f->part_len[i];
        }
        return poMulti;
    }
    case SWX_GEOM_POLYGON:
    case SWX_GEOM_MULTIPOLYGON: {
        auto poMulti = std::make_unique<OGRMultiPolygon>();
        const size_t nPolys = f->poly_rings ? f->npolys : f->nparts;
        size_t iPart = 0;
        for (size_t i = 0; i < nPolys; i++) {
            auto poPoly = std::make_unique<OGRPolygon>();
            const size_t nRings = f->poly_rings ? f->poly_rings[i] : 1;
            for (size_t r = 0; r < nRings; r++, iPart++) {
                poPoly->addRingDirectly(Ring(xy, f->part_len[iPart]).release());
                xy += 2 * f->part_len[iPart];
            }
            poMulti->addGeometryDirectly(poPoly.release());
        }
        return poMulti;
    }
    }
    return nullptr;
}

std::unique_ptr<OGRFeature> SEAWXStormLayer::Translate(const swx_storm_feature *f)
{
    auto poFeature = std::make_unique<OGRFeature>(m_poDefn);
    const swx_storm_field *psFields = nullptr;
    size_t n = swx_storm_fields(&psFields, m_nKind);
    for (size_t i = 0; i < n; i++) {
        swx_storm_value v;
        swx_storm_feature_value(&v, f, i);
        const int iField = static_cast<int>(i);
        if (v.null) {
            poFeature->SetFieldNull(iField);
            continue;
        }
        switch (psFields[i].type) {
        case SWX_SF_STRING:
            poFeature->SetField(iField, v.s);
            break;
        case SWX_SF_INT:
        case SWX_SF_BOOL:
            poFeature->SetField(iField, static_cast<int>(v.i));
            break;
        case SWX_SF_REAL:
            poFeature->SetField(iField, v.d);
            break;
        case SWX_SF_DATETIME: {
            int y, mo, d, h, mi, s;
            swx_civil_from_time(&y, &mo, &d, &h, &mi, &s, v.i);
            poFeature->SetField(iField, y, mo, d, h, mi, static_cast<float>(s), 100);
            break;
        }
        case SWX_SF_DATE: {
            int y = 0, mo = 0, d = 0;
            if (sscanf(v.s, "%d-%d-%d", &y, &mo, &d) == 3)
                poFeature->SetField(iField, y, mo, d);
            else
                poFeature->SetFieldNull(iField);
            break;
        }
        }
    }
    std::unique_ptr<OGRGeometry> poGeom = Geometry(f);
    if (poGeom) {
        poGeom->assignSpatialReference(m_poDS->m_poSRS.get());
        poFeature->SetGeometryDirectly(poGeom.release());
    }
    return poFeature;
}

int SEAWXStormLayer::OnFeature(void *ud, const swx_storm_feature *f)
{
    auto poThis = static_cast<SEAWXStormLayer *>(ud);
    poThis->m_apoPending.push_back(poThis->Translate(f));
    return 0;
}

OGRFeature *SEAWXStormLayer::GetNextFeature()
{
    for (;;) {
        if (m_iPending >= m_apoPending.size()) {
            m_apoPending.clear();
            m_iPending = 0;
            const swx_storm_list *psList = Storms();
            if (!psList || !m_psGeo || m_iStorm >= psList->count)
                return nullptr;
            if (swx_storm_features(m_psGeo, psList->items[m_iStorm++], 1u << m_nKind, OnFeature,
                                   this) != 0) {
                SEAWXReportError(CE_Failure, "cannot build the storm features");
                return nullptr;
            }
            continue;
        }
        std::unique_ptr<OGRFeature> poFeature = std::move(m_apoPending[m_iPending++]);
        poFeature->SetFID(m_nNextFID++);
        if ((m_poFilterGeom == nullptr || FilterGeometry(poFeature->GetGeometryRef())) &&
            (m_poAttrQuery == nullptr || m_poAttrQuery->Evaluate(poFeature.get())))
            return poFeature.release(); /* the caller owns it */
    }
}

GIntBig SEAWXStormLayer::GetFeatureCount(int bForce)
{
    if (m_poFilterGeom || m_poAttrQuery)
        return OGRLayer::GetFeatureCount(bForce);
    const swx_storm_list *psList = Storms();
    if (!psList)
        return 0;
    GIntBig n = 0;
    for (size_t i = 0; i < psList->count; i++)
        n += static_cast<GIntBig>(swx_storm_feature_count(psList->items[i], m_nKind));
    return n;
}

int SEAWXStormLayer::TestCapability(const char *pszCap)
{
    if (EQUAL(pszCap, OLCFastFeatureCount))
        return m_poFilterGeom == nullptr && m_poAttrQuery == nullptr;
    if (EQUAL(pszCap, OLCStringsAsUTF8))
        return TRUE;
    return FALSE;
}

/* The season of a storm can start in July of the year before (southern
 * hemisphere) and end in June of the year after: the period sent covers it. */
static CPLString SeasonPeriod(GIntBig nYear)
{
    return CPLSPrintf("%04d-07-01T00:00:00Z/%04d-06-30T23:59:59Z", static_cast<int>(nYear - 1),
                      static_cast<int>(nYear + 1));
}

/* Adds the parameter one comparison of the filter maps to, if any. Only
 * conditions that select whole storms are sent, and only when the answer
 * is a superset of what the condition keeps. */
static void PushComparison(const swq_expr_node *poNode, OGRFeatureDefn *poDefn, int nKind,
                           CPLStringList &aos)
{
    if (poNode->eNodeType != SNT_OPERATION || poNode->nSubExprCount != 2)
        return;
    const swq_expr_node *poCol = poNode->papoSubExpr[0], *poVal = poNode->papoSubExpr[1];
    if (poCol->eNodeType != SNT_COLUMN || poVal->eNodeType != SNT_CONSTANT || poVal->is_null)
        return;
    if (poCol->field_index < 0 || poCol->field_index >= poDefn->GetFieldCount())
        return;
    const char *pszField = poDefn->GetFieldDefn(poCol->field_index)->GetNameRef();
    const bool bStr = poVal->field_type == SWQ_STRING && poVal->string_value;
    const bool bNum = poVal->field_type == SWQ_INTEGER || poVal->field_type == SWQ_INTEGER64 ||
                      poVal->field_type == SWQ_FLOAT;
    const double dfVal =
        poVal->field_type == SWQ_FLOAT ? poVal->float_value : static_cast<double>(poVal->int_value);
    const swq_op eOp = poNode->nOperation;
    const bool bStormLevel = swx_storm_kind_get(nKind)->per_storm != 0;

    if (eOp == SWQ_EQ && bStr && EQUAL(pszField, "atcf_id"))
        aos.SetNameValue("id", poVal->string_value);
    else if (eOp == SWQ_EQ && bStr && bStormLevel && EQUAL(pszField, "storm_name"))
        aos.SetNameValue("name", poVal->string_value);
    else if (eOp == SWQ_EQ && bStr && EQUAL(pszField, "title")) {
        /* An unnamed storm is titled by its ATCF id. */
        char szBasin[3];
        int nNum, nYear;
        if (swx_storm_atcf_parse(szBasin, &nNum, &nYear, poVal->string_value) == 0)
            aos.SetNameValue("id", poVal->string_value);
        else
            aos.SetNameValue("name", poVal->string_value);
        swx_error_clear();
    } else if (eOp == SWQ_EQ && bStr && bStormLevel && EQUAL(pszField, "status"))
        aos.SetNameValue("status", poVal->string_value);
    else if (eOp == SWQ_EQ && bNum && bStormLevel && EQUAL(pszField, "is_active"))
        aos.SetNameValue("status", dfVal != 0 ? "active" : "inactive");
    else if (eOp == SWQ_EQ && bStr && bStormLevel &&
             (EQUAL(pszField, "basin") || EQUAL(pszField, "subbasin")))
        aos.SetNameValue("region", poVal->string_value);
    else if ((eOp == SWQ_EQ || eOp == SWQ_GE) && bStr && bStormLevel &&
             EQUAL(pszField, "max_development_category") &&
             swx_storm_category_rank(poVal->string_value) >= 0)
        aos.SetNameValue("category", poVal->string_value);
    else if ((eOp == SWQ_EQ || eOp == SWQ_GE || eOp == SWQ_GT) && bNum && bStormLevel &&
             EQUAL(pszField, "category_rank")) {
        int nRank = static_cast<int>(std::ceil(dfVal)) + (eOp == SWQ_GT ? 1 : 0);
        if (swx_storm_category_code(nRank))
            aos.SetNameValue("category", swx_storm_category_code(nRank));
    } else if ((eOp == SWQ_EQ || eOp == SWQ_GE || eOp == SWQ_GT) && bNum && bStormLevel &&
               EQUAL(pszField, "max_sustained_wind") && dfVal >= 0)
        aos.SetNameValue("intensity", CPLSPrintf("%.15g", dfVal));
    else if (eOp == SWQ_EQ && bNum && bStormLevel && EQUAL(pszField, "season") && dfVal >= 1800 &&
             dfVal < 3000)
        aos.SetNameValue("period", SeasonPeriod(static_cast<GIntBig>(dfVal)));
}

static void PushConjuncts(const swq_expr_node *poNode, OGRFeatureDefn *poDefn, int nKind,
                          CPLStringList &aos)
{
    if (poNode->eNodeType == SNT_OPERATION && poNode->nOperation == SWQ_AND) {
        for (int i = 0; i < poNode->nSubExprCount; i++)
            PushConjuncts(poNode->papoSubExpr[i], poDefn, nKind, aos);
        return;
    }
    PushComparison(poNode, poDefn, nKind, aos);
}

OGRErr SEAWXStormLayer::SetAttributeFilter(const char *pszQuery)
{
    OGRErr eErr = OGRLayer::SetAttributeFilter(pszQuery);
    if (eErr != OGRERR_NONE)
        return eErr;
    CPLStringList aos;
    if (!m_poDS->m_bKMZ && m_poAttrQuery) {
        auto poExpr = static_cast<swq_expr_node *>(m_poAttrQuery->GetSWQExpr());
        if (poExpr)
            PushConjuncts(poExpr, m_poDefn, m_nKind, aos);
    }
    m_aosPushed = aos;
    m_osPushed.clear();
    for (int i = 0; i < aos.size(); i++)
        m_osPushed += CPLString(i ? "&" : "") + aos[i];
    if (!m_osPushed.empty())
        CPLDebug("SEAWX", "layer %s: filter sent to the service as %s", m_poDefn->GetName(),
                 m_osPushed.c_str());
    ResetReading();
    return OGRERR_NONE;
}
