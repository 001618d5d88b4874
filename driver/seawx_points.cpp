/*
 * seawx_points.cpp: point, time-series and vessel answers as OGR layers.
 *
 *   SEAWX:tides,lat=..,lon=..[,start=..][,hours=..][,units=si|us]
 *   SEAWX:tide-extrema,lat=..,lon=..,start=..,end=..[,units=..]
 *   SEAWX:soil,lat=..,lon=..[,time=..]      SEAWX:soil-history,lat,lon,start,end
 *   SEAWX:weather,lat=..,lon=..[,time=..][,units=..][,tz=..][,fields=..]
 *   SEAWX:forecast,lat=..,lon=..,bundles=..[,units=..]   SEAWX:forecast-latest,...
 *   SEAWX:vessels[,categories=..][,limit=..][,pages=..]
 *
 * Each opens one layer named after the kind, with the typed columns of the
 * core's table (seawx/table.h) and, for points, a Point geometry in WGS 84.
 * The answer is fetched once, at open time; the layer reads it from memory.
 */
#include "seawx_gdal.h"

#include "cpl_string.h"
#include "cpl_time.h"

extern "C" {
#include "seawx/error.h"
#include "seawx/point.h"
#include "seawx/table.h"
#include "seawx/vessels.h"
}

#include <cstring>
#include <memory>

namespace
{

class SEAWXTableLayer final : public OGRLayer
{
  public:
    SEAWXTableLayer(const char *pszName, swx_table *psTable)
        : m_poTable(psTable), m_psTable(psTable)
    {
        m_poDefn = new OGRFeatureDefn(pszName);
        m_poDefn->Reference();
        m_bPoint = swx_table_point_columns(&m_nLatCol, &m_nLonCol, psTable) != 0;
        m_poDefn->SetGeomType(m_bPoint ? wkbPoint : wkbNone);
        if (m_bPoint) {
            m_oSRS.SetWellKnownGeogCS("WGS84");
            m_oSRS.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
            m_poDefn->GetGeomFieldDefn(0)->SetSpatialRef(&m_oSRS);
        }
        for (size_t c = 0; c < swx_table_columns(psTable); c++) {
            OGRFieldType eType = OFTString;
            OGRFieldSubType eSub = OFSTNone;
            switch (swx_table_column_type(psTable, c)) {
            case SWX_COL_INT:
                eType = OFTInteger64;
                break;
            case SWX_COL_REAL:
                eType = OFTReal;
                break;
            case SWX_COL_STRING:
                eType = OFTString;
                break;
            case SWX_COL_TIME:
                eType = OFTDateTime;
                break;
            case SWX_COL_DATE:
                eType = OFTDate;
                break;
            case SWX_COL_BOOL:
                eType = OFTInteger;
                eSub = OFSTBoolean;
                break;
            }
            OGRFieldDefn oField(swx_table_column_name(psTable, c), eType);
            oField.SetSubType(eSub);
            m_poDefn->AddFieldDefn(&oField);
        }
        SetDescription(pszName);
    }

    ~SEAWXTableLayer() override
    {
        m_poDefn->Release();
    }

    SEAWXTableLayer(const SEAWXTableLayer &) = delete;
    SEAWXTableLayer &operator=(const SEAWXTableLayer &) = delete;

    void ResetReading() override
    {
        m_nNext = 0;
    }

    OGRFeature *GetNextFeature() override
    {
        while (m_nNext < swx_table_rows(m_psTable)) {
            std::unique_ptr<OGRFeature> poFeature = Make(m_nNext++);
            if ((m_poFilterGeom == nullptr || FilterGeometry(poFeature->GetGeometryRef())) &&
                (m_poAttrQuery == nullptr || m_poAttrQuery->Evaluate(poFeature.get())))
                return poFeature.release();
        }
        return nullptr;
    }

    OGRFeature *GetFeature(GIntBig nFID) override
    {
        if (nFID < 1 || static_cast<size_t>(nFID) > swx_table_rows(m_psTable))
            return nullptr;
        return Make(static_cast<size_t>(nFID - 1)).release();
    }

    GIntBig GetFeatureCount(int bForce) override
    {
        if (m_poFilterGeom == nullptr && m_poAttrQuery == nullptr)
            return static_cast<GIntBig>(swx_table_rows(m_psTable));
        return OGRLayer::GetFeatureCount(bForce);
    }

    OGRFeatureDefn *GetLayerDefn() override
    {
        return m_poDefn;
    }

    int TestCapability(const char *pszCap) override
    {
        return EQUAL(pszCap, OLCFastFeatureCount) || EQUAL(pszCap, OLCRandomRead) ||
               EQUAL(pszCap, OLCStringsAsUTF8);
    }

  private:
    std::unique_ptr<OGRFeature> Make(size_t r)
    {
        auto poFeature = std::make_unique<OGRFeature>(m_poDefn);
        poFeature->SetFID(static_cast<GIntBig>(r + 1));
        for (size_t c = 0; c < swx_table_columns(m_psTable); c++) {
            int i = static_cast<int>(c);
            if (swx_table_is_null(m_psTable, r, c)) {
                poFeature->SetFieldNull(i);
                continue;
            }
            switch (swx_table_column_type(m_psTable, c)) {
            case SWX_COL_INT:
                poFeature->SetField(i, static_cast<GIntBig>(swx_table_get_int(m_psTable, r, c)));
                break;
            case SWX_COL_REAL:
                poFeature->SetField(i, swx_table_get_real(m_psTable, r, c));
                break;
            case SWX_COL_STRING:
                poFeature->SetField(i, swx_table_get_string(m_psTable, r, c));
                break;
            case SWX_COL_BOOL:
                poFeature->SetField(i, swx_table_get_bool(m_psTable, r, c));
                break;
            case SWX_COL_TIME:
            case SWX_COL_DATE: {
                struct tm tmv;
                CPLUnixTimeToYMDHMS(swx_table_get_time(m_psTable, r, c), &tmv);
                poFeature->SetField(i, tmv.tm_year + 1900, tmv.tm_mon + 1, tmv.tm_mday, tmv.tm_hour,
                                    tmv.tm_min, static_cast<float>(tmv.tm_sec), 100);
                break;
            }
            }
        }
        if (m_bPoint && !swx_table_is_null(m_psTable, r, m_nLatCol) &&
            !swx_table_is_null(m_psTable, r, m_nLonCol)) {
            auto poPoint = std::make_unique<OGRPoint>(swx_table_get_real(m_psTable, r, m_nLonCol),
                                                      swx_table_get_real(m_psTable, r, m_nLatCol));
            poPoint->assignSpatialReference(&m_oSRS);
            poFeature->SetGeometryDirectly(poPoint.release());
        }
        return poFeature;
    }

    std::unique_ptr<swx_table, SEAWXFreer<swx_table, swx_table_free>> m_poTable;
    swx_table *m_psTable = nullptr;     /* m_poTable's */
    OGRFeatureDefn *m_poDefn = nullptr; /* reference counted, as GDAL shares it */
    OGRSpatialReference m_oSRS{};
    bool m_bPoint = false;
    size_t m_nLatCol = 0, m_nLonCol = 0;
    size_t m_nNext = 0;
};

class SEAWXTableDataset final : public GDALDataset
{
  public:
    explicit SEAWXTableDataset(std::unique_ptr<SEAWXTableLayer> poLayer)
        : m_poLayer(std::move(poLayer))
    {
    }
    SEAWXTableDataset(const SEAWXTableDataset &) = delete;
    SEAWXTableDataset &operator=(const SEAWXTableDataset &) = delete;

    int GetLayerCount() override
    {
        return 1;
    }
    OGRLayer *GetLayer(int i) override
    {
        return i == 0 ? m_poLayer.get() : nullptr;
    }

  private:
    std::unique_ptr<SEAWXTableLayer> m_poLayer;
};

const char *const apszPointKeys[] = {"lat",   "lon",     "time",    "start",  "end",
                                     "hours", "units",   "tz",      "fields", "bundles",
                                     "url",   "timeout", "retries", nullptr};
const char *const apszVesselKeys[] = {"categories", "limit",   "pages", "url",
                                      "timeout",    "retries", nullptr};

} // namespace

bool SEAWXCheckKeys(const char *pszKind, swx_connstr *cs, const char *const *papszKeys)
{
    for (size_t i = 0; i < swx_connstr_count(cs); i++) {
        const char *pszKey = swx_connstr_key(cs, i);
        /* NATIVE_DATA is an open option ogr2ogr passes to every vector driver. */
        if (CSLFindString(const_cast<char **>(papszKeys), pszKey) < 0 &&
            !EQUAL(pszKey, "native_data")) {
            CPLString osList;
            for (const char *const *p = papszKeys; *p; ++p)
                osList += CPLString(osList.empty() ? "" : ", ") + *p;
            CPLError(CE_Failure, CPLE_OpenFailed, "SEAWX: %s takes no option '%s'; options are %s",
                     pszKind, pszKey, osList.c_str());
            return false;
        }
    }
    return true;
}

bool SEAWXIsPointsKind(const char *pszKind)
{
    swx_point_kind k;
    return pszKind && (EQUAL(pszKind, "vessels") || swx_point_kind_parse(&k, pszKind) == 0);
}

GDALDataset *SEAWXOpenPoints(GDALOpenInfo *poOpenInfo, SEAWXOptions &oOpts)
{
    const char *pszKind = oOpts.Kind();
    const bool bVessels = EQUAL(pszKind, "vessels");
    if (!(poOpenInfo->nOpenFlags & GDAL_OF_VECTOR)) {
        CPLError(CE_Failure, CPLE_OpenFailed,
                 "SEAWX: %s is vector data; open it with ogrinfo or ogr2ogr", pszKind);
        return nullptr;
    }
    if (!SEAWXCheckKeys(oOpts.Kind(), oOpts.Raw(), bVessels ? apszVesselKeys : apszPointKeys))
        return nullptr;

    swx_point_query q = {};
    swx_vessels_query vq = {};
    if (bVessels) {
        vq.categories = oOpts.Get("categories");
        vq.limit = oOpts.Get("limit");
        vq.max_pages = oOpts.Get("pages");
        if (swx_vessels_check(&vq) != 0) {
            SEAWXReportError(CE_Failure, "invalid vessels options");
            return nullptr;
        }
    } else {
        swx_point_kind_parse(&q.kind, pszKind);
        q.lat = oOpts.Get("lat");
        q.lon = oOpts.Get("lon");
        q.time = oOpts.Get("time");
        q.start = oOpts.Get("start");
        q.end = oOpts.Get("end");
        q.hours = oOpts.Get("hours");
        q.units = oOpts.Get("units");
        q.tz = oOpts.Get("tz");
        q.fields = oOpts.Get("fields");
        q.bundles = oOpts.Get("bundles");
        /* Bad input is refused before anything is sent. */
        if (swx_point_check(&q) != 0) {
            SEAWXReportError(CE_Failure, "invalid point options");
            return nullptr;
        }
    }
    SEAWXClientPtr poClient = SEAWXMakeClient(oOpts);
    if (!poClient)
        return nullptr;
    swx_table *psTable = nullptr;
    int rc = bVessels ? swx_vessels_get(&psTable, poClient.get(), &vq, nullptr, nullptr)
                      : swx_point_get(&psTable, poClient.get(), &q);
    poClient.reset();
    if (rc != 0) {
        SEAWXReportError(CE_Failure, "the request failed");
        return nullptr;
    }
    auto poLayer = std::make_unique<SEAWXTableLayer>(pszKind, psTable);
    for (size_t i = 0; i < swx_table_meta_count(psTable); i++) {
        const char *k = swx_table_meta_key(psTable, i);
        poLayer->SetMetadataItem(CPLString(k).toupper().c_str(), swx_table_meta(psTable, k));
    }
    auto poDS = std::make_unique<SEAWXTableDataset>(std::move(poLayer));
    poDS->SetDescription(poOpenInfo->pszFilename);
    return poDS.release();
}
