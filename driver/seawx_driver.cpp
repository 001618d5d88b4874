/*
 * seawx_driver.cpp: registration of the SEAWX driver, connection options, and
 * opening: "SEAWX:" lists the bundles, "SEAWX:bundle=B" the layers of a
 * bundle, and "SEAWX:bundle=B,layer=L" (or variable=V) opens a layer as a
 * raster. README section "GDAL plugin" documents every option.
 */
#include "seawx_gdal.h"

#include "cpl_string.h"

extern "C" {
#include "seawx/diskcache.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/wms.h"
}

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>

static const char *const apszRasterKeys[] = {
    "bundle", "layer", "variable", "run", "time", "style", "crs", "width", "height", "res",
    "blocksize", "cache", "url", "wms_auth", "max_connections", "timeout", "retries", nullptr};

/* ---- options ---- */

/* Numbers and switches are checked when the string is parsed, before anything
 * is sent: a typo is an error, never a silent default. Ranges the core knows
 * better (block size, the size limit) are left to it. */
static bool CheckNumbers(const SEAWXOptions &oOpts, bool bRaster)
{
    static const struct
    {
        const char *pszKey;
        long nMin, nMax;
        bool bRasterOnly;
    } asInts[] = {{"timeout", 1, 86400, false},    {"retries", 0, 100, false},
                  {"width", 1, 1L << 30, true},     {"height", 1, 1L << 30, true},
                  {"blocksize", 1, 1L << 30, true}, {"max_connections", 1, 256, true}};
    for (const auto &sInt : asInts)
    {
        const char *v = oOpts.Get(sInt.pszKey);
        if (!v || (sInt.bRasterOnly && !bRaster))
            continue;
        char *end = nullptr;
        errno = 0;
        long n = strtol(v, &end, 10);
        if (errno || end == v || *end || n < sInt.nMin || n > sInt.nMax)
        {
            CPLError(CE_Failure, CPLE_OpenFailed,
                     "SEAWX: %s must be a whole number from %ld to %ld, not '%s'", sInt.pszKey,
                     sInt.nMin, sInt.nMax, v);
            return false;
        }
    }
    if (!bRaster)
        return true;
    if (const char *v = oOpts.Get("res"))
    {
        char *end = nullptr;
        double d = CPLStrtod(v, &end);
        if (end == v || *end || !std::isfinite(d) || !(d > 0))
        {
            CPLError(CE_Failure, CPLE_OpenFailed,
                     "SEAWX: res must be a positive pixel size in CRS units, not '%s'", v);
            return false;
        }
    }
    if (const char *v = oOpts.Get("cache"))
    {
        static const char *const apszBool[] = {"yes", "no", "true", "false", "on", "off",
                                               "1",   "0",  nullptr};
        if (CSLFindString(const_cast<char **>(apszBool), v) < 0)
        {
            CPLError(CE_Failure, CPLE_OpenFailed, "SEAWX: cache must be yes or no, not '%s'", v);
            return false;
        }
    }
    return true;
}

SEAWXOptions::~SEAWXOptions()
{
    swx_connstr_free(m_cs);
}

bool SEAWXOptions::Parse(const char *pszConnection, CSLConstList papszOpenOptions)
{
    if (swx_connstr_parse(&m_cs, pszConnection) != 0)
    {
        SEAWXReportError(CE_Failure, "invalid connection string");
        return false;
    }
    for (CSLConstList p = papszOpenOptions; p && *p; ++p)
    {
        char *pszKey = nullptr;
        const char *pszValue = CPLParseNameValue(*p, &pszKey);
        if (pszKey && pszValue)
        {
            CPLString osKey(pszKey);
            osKey.tolower();
            if (swx_connstr_set(m_cs, osKey.c_str(), pszValue) != 0)
            {
                CPLFree(pszKey);
                SEAWXReportError(CE_Failure, "invalid open option");
                return false;
            }
        }
        CPLFree(pszKey);
    }
    for (size_t i = 0; i < swx_connstr_count(m_cs); i++)
    {
        const char *pszKey = swx_connstr_key(m_cs, i);
        if (CSLFindString(const_cast<char **>(apszRasterKeys), pszKey) < 0 && !Kind())
        {
            CPLError(CE_Failure, CPLE_OpenFailed,
                     "SEAWX: unknown option '%s'; options are bundle, layer, variable, run, "
                     "time, style, crs, width, height, res, blocksize, cache, url, wms_auth, "
                     "max_connections, timeout, retries",
                     pszKey);
            return false;
        }
    }
    return CheckNumbers(*this, !Kind());
}

const char *SEAWXOptions::Get(const char *pszKey) const
{
    const char *v = swx_connstr_get(m_cs, pszKey);
    return v && *v ? v : nullptr;
}

const char *SEAWXOptions::Kind() const
{
    return swx_connstr_kind(m_cs);
}

CPLString SEAWXOptions::With(const char *pszKey, const char *pszValue, const char *pszKey2,
                             const char *pszValue2) const
{
    CPLString osOut;
    char *pszCopy = swx_connstr_format(m_cs);
    swx_connstr *cs = nullptr;
    if (pszCopy && swx_connstr_parse(&cs, pszCopy) == 0)
    {
        swx_connstr_set(cs, pszKey, pszValue);
        if (pszKey2)
            swx_connstr_set(cs, pszKey2, pszValue2);
        char *s = swx_connstr_format(cs);
        if (s)
            osOut = s;
        free(s);
    }
    swx_connstr_free(cs);
    free(pszCopy);
    return osOut;
}

void SEAWXReportError(CPLErr eClass, const char *pszContext)
{
    const char *line = swx_error_last();
    CPLError(eClass, CPLE_AppDefined, "SEAWX: %s", line && *line ? line : pszContext);
}

swx_client *SEAWXCreateClient(const SEAWXOptions &oOpts)
{
    swx_client_opts o = {};
    o.base_url = oOpts.Get("url") ? oOpts.Get("url") : CPLGetConfigOption("SEAWX_BASE_URL", nullptr);
    o.vessels_url = CPLGetConfigOption("SEAWX_VESSELS_URL", nullptr);
    o.api_key = CPLGetConfigOption("SEAWX_API_KEY", nullptr);
    if (!o.api_key || !*o.api_key)
    {
        o.api_key = nullptr;
        o.api_key_file = CPLGetConfigOption("SEAWX_API_KEY_FILE", nullptr);
    }
    o.wms_auth = oOpts.Get("wms_auth") ? oOpts.Get("wms_auth")
                                       : CPLGetConfigOption("SEAWX_WMS_AUTH", nullptr);
    o.wms_password = CPLGetConfigOption("SEAWX_WMS_PASSWORD", nullptr);
    o.user_agent = "seawx-gdal/" SEAWX_VERSION;
    if (const char *t = oOpts.Get("timeout"))
        o.timeout_ms = atol(t) * 1000;
    if (const char *r = oOpts.Get("retries"))
        o.max_retries = atoi(r) > 0 ? atoi(r) : -1;
    o.insecure = CPLTestBool(CPLGetConfigOption("SEAWX_INSECURE", "NO"));
    /* Trusted certificates: the plugin's own setting, else GDAL's. */
    o.ca_file = CPLGetConfigOption("SEAWX_CA_BUNDLE", CPLGetConfigOption("CURL_CA_BUNDLE", nullptr));
    swx_client *c = nullptr;
    if (swx_client_new(&c, &o) != 0)
    {
        SEAWXReportError(CE_Failure, "cannot set the client up");
        return nullptr;
    }
    if (!swx_client_has_key(c))
    {
        CPLError(CE_Failure, CPLE_OpenFailed,
                 "SEAWX: no API key: set SEAWX_API_KEY (environment or --config), or "
                 "SEAWX_API_KEY_FILE");
        swx_client_free(c);
        return nullptr;
    }
    return c;
}

/* ---- listing ---- */

GDALDataset *SEAWXListDataset::OpenBundles(const SEAWXOptions &oOpts)
{
    auto poDS = new SEAWXListDataset();
    poDS->nPamFlags |= GPF_DISABLED; /* no SEAWX:....aux.xml in the working folder */
    CPLStringList aosSub;
    for (size_t i = 0; i < swx_wms_bundle_count(); i++)
    {
        aosSub.SetNameValue(CPLSPrintf("SUBDATASET_%d_NAME", int(i + 1)),
                            oOpts.With("bundle", swx_wms_bundle(i)).c_str());
        aosSub.SetNameValue(CPLSPrintf("SUBDATASET_%d_DESC", int(i + 1)),
                            CPLSPrintf("Bundle %s (WMS layers)", swx_wms_bundle(i)));
    }
    poDS->SetMetadata(aosSub.List(), "SUBDATASETS");
    return poDS;
}

static CPLString TimeString(int64_t t)
{
    char s[SWX_ISO8601_LEN];
    swx_iso8601_format(t, s);
    return s;
}

GDALDataset *SEAWXListDataset::OpenLayers(const SEAWXOptions &oOpts, const swx_caps *psCaps)
{
    auto poDS = new SEAWXListDataset();
    poDS->nPamFlags |= GPF_DISABLED; /* no SEAWX:....aux.xml in the working folder */
    CPLStringList aosSub;
    int n = 0;
    auto add = [&](const CPLString &osName, const CPLString &osDesc)
    {
        n++;
        aosSub.SetNameValue(CPLSPrintf("SUBDATASET_%d_NAME", n), osName.c_str());
        aosSub.SetNameValue(CPLSPrintf("SUBDATASET_%d_DESC", n), osDesc.c_str());
    };
    /* First one "latest" entry per variable (and unit): it always resolves to
     * the newest complete run, so a saved project keeps showing fresh data. */
    std::vector<CPLString> aosSeen;
    for (size_t i = 0; i < swx_caps_layer_count(psCaps); i++)
    {
        const swx_layer *l = swx_caps_layer(psCaps, i);
        const char *unit = swx_layer_unit(l);
        CPLString osVar(swx_layer_variable(l));
        if (unit)
            osVar += CPLString(":") + unit;
        if (std::find(aosSeen.begin(), aosSeen.end(), osVar) != aosSeen.end())
            continue;
        aosSeen.push_back(osVar);
        const swx_layer *latest = nullptr;
        if (swx_caps_latest(psCaps, swx_layer_variable(l), unit ? unit : "", &latest) != 0)
            continue;
        const char *title = swx_layer_title(latest);
        add(oOpts.With("variable", osVar.c_str(), "run", "latest"),
            CPLSPrintf("%s%s%s, latest complete run", osVar.c_str(), title ? " - " : "",
                       title ? title : ""));
    }
    for (size_t i = 0; i < swx_caps_layer_count(psCaps); i++)
    {
        const swx_layer *l = swx_caps_layer(psCaps, i);
        const char *unit = swx_layer_unit(l);
        const swx_timedim *td = swx_layer_time(l);
        int64_t run = 0;
        CPLString osRun = swx_layer_run_time(l, &run) == 0 ? TimeString(run) : CPLString("-");
        CPLString osTimes =
            td ? CPLSPrintf("%d valid times", int(swx_timedim_count(td))) : "no time dimension";
        const char *title = swx_layer_title(l);
        add(oOpts.With("layer", swx_layer_name(l)),
            CPLSPrintf("%s%s%s%s%s, run %s, %s%s", swx_layer_variable(l), unit ? ":" : "",
                       unit ? unit : "", title ? " - " : "", title ? title : "", osRun.c_str(),
                       osTimes.c_str(),
                       td && !swx_caps_run_is_complete(psCaps, l) ? " (in production)" : ""));
    }
    poDS->SetMetadata(aosSub.List(), "SUBDATASETS");
    return poDS;
}

/* ---- the driver ---- */

static int SEAWXIdentify(GDALOpenInfo *poOpenInfo)
{
    return STARTS_WITH_CI(poOpenInfo->pszFilename, SWX_CONNSTR_PREFIX);
}

static GDALDataset *SEAWXOpen(GDALOpenInfo *poOpenInfo)
{
    if (!SEAWXIdentify(poOpenInfo))
        return nullptr;
    if (poOpenInfo->eAccess == GA_Update)
    {
        CPLError(CE_Failure, CPLE_NotSupported,
                 "SEAWX: the service is read-only; open without update mode");
        return nullptr;
    }
    SEAWXOptions oOpts;
    if (!oOpts.Parse(poOpenInfo->pszFilename, poOpenInfo->papszOpenOptions))
        return nullptr;
    if (oOpts.Kind() && (EQUAL(oOpts.Kind(), "storms") || EQUAL(oOpts.Kind(), "kmz")))
        return SEAWXStormDataset::Open(poOpenInfo, oOpts);
    if (oOpts.Kind() && SEAWXIsPointsKind(oOpts.Kind()))
        return SEAWXOpenPoints(poOpenInfo, oOpts);
    if (oOpts.Kind() && SEAWXIsFilesKind(oOpts.Kind()))
        return SEAWXOpenFiles(poOpenInfo, oOpts);
    if (oOpts.Kind())
    {
        CPLError(CE_Failure, CPLE_OpenFailed, "SEAWX: unknown dataset kind '%s'", oOpts.Kind());
        return nullptr;
    }
    if (!(poOpenInfo->nOpenFlags & GDAL_OF_RASTER))
        return nullptr;
    const char *pszBundle = oOpts.Get("bundle");
    if (!pszBundle)
        return SEAWXListDataset::OpenBundles(oOpts);
    if (swx_wms_bundle_check(pszBundle) != 0)
    {
        SEAWXReportError(CE_Failure, "unknown bundle");
        return nullptr;
    }
    swx_client *psClient = SEAWXCreateClient(oOpts);
    if (!psClient)
        return nullptr;
    swx_caps *psCaps = nullptr;
    if (swx_wms_get_caps(psClient, pszBundle, &psCaps) != 0)
    {
        SEAWXReportError(CE_Failure, "cannot read the capabilities");
        swx_client_free(psClient);
        return nullptr;
    }
    if (!oOpts.Get("layer") && !oOpts.Get("variable"))
    {
        GDALDataset *poDS = SEAWXListDataset::OpenLayers(oOpts, psCaps);
        swx_caps_free(psCaps);
        swx_client_free(psClient);
        return poDS;
    }
    /* The raster dataset takes the client and the capabilities over. */
    return SEAWXRasterDataset::Open(poOpenInfo, oOpts, psClient, psCaps);
}

extern "C" __attribute__((visibility("default"))) void GDALRegister_SEAWX();

void GDALRegister_SEAWX()
{
    if (!GDAL_CHECK_VERSION("SEAWX"))
        return;
    if (GDALGetDriverByName("SEAWX") != nullptr)
        return;
    auto poDriver = new GDALDriver();
    poDriver->SetDescription("SEAWX");
    poDriver->SetMetadataItem(GDAL_DCAP_RASTER, "YES");
    poDriver->SetMetadataItem(GDAL_DCAP_VECTOR, "YES");
    poDriver->SetMetadataItem(GDAL_DMD_LONGNAME, "Weather, Ocean and Vessel Data Service (seawx)");
    poDriver->SetMetadataItem(GDAL_DMD_HELPTOPIC, "README.md#gdal-plugin");
    poDriver->SetMetadataItem(GDAL_DMD_CONNECTION_PREFIX, SWX_CONNSTR_PREFIX);
    poDriver->SetMetadataItem(GDAL_DMD_SUBDATASETS, "YES");
    poDriver->SetMetadataItem(GDAL_DCAP_VIRTUALIO, "NO");
    poDriver->SetMetadataItem(
        GDAL_DMD_OPENOPTIONLIST,
        "<OpenOptionList>"
        "  <Option name='BUNDLE' type='string-select' description='Data bundle of the WMS layers'>"
        "    <Value>basic</Value><Value>precipitation</Value><Value>maritime</Value>"
        "    <Value>maritime-wave</Value><Value>maritime-wave-ext</Value>"
        "    <Value>maritime-atmos</Value><Value>clouds</Value><Value>thunderstorm</Value>"
        "    <Value>upper-air</Value><Value>agricultural</Value><Value>wind-energy</Value>"
        "    <Value>solar-energy</Value>"
        "  </Option>"
        "  <Option name='LAYER' type='string' description='Full layer name, e.g. "
        "sof-d/20241001/00/t2m:K'/>"
        "  <Option name='VARIABLE' type='string' description='Variable (t2m) or variable and "
        "unit (t2m:K), instead of LAYER'/>"
        "  <Option name='RUN' type='string' default='latest' description='With VARIABLE: latest "
        "(newest complete run) or YYYYMMDDHH'/>"
        "  <Option name='TIME' type='string' description='Valid time, ISO 8601 (default: the "
        "layer default)'/>"
        "  <Option name='STYLE' type='string' description='Style name (default: the first "
        "style of the layer)'/>"
        "  <Option name='CRS' type='string-select' default='EPSG:4326'>"
        "    <Value>EPSG:4326</Value><Value>EPSG:3857</Value>"
        "  </Option>"
        "  <Option name='WIDTH' type='int' description='Raster width in pixels (default: the "
        "0.25 degree model grid)'/>"
        "  <Option name='HEIGHT' type='int' description='Raster height in pixels'/>"
        "  <Option name='RES' type='float' description='Pixel size in CRS units'/>"
        "  <Option name='BLOCKSIZE' type='int' default='256' description='Block size, 256 or "
        "512; one GetMap per block'/>"
        "  <Option name='CACHE' type='boolean' default='YES' description='Keep fetched blocks "
        "in the disk cache (SEAWX_CACHE_DIR, else XDG cache folder)'/>"
        "  <Option name='MAX_CONNECTIONS' type='int' default='32' description='GetMap requests "
        "in flight at once'/>"
        "  <Option name='TIMEOUT' type='int' default='120' description='Seconds before one "
        "request is given up'/>"
        "  <Option name='RETRIES' type='int' default='5' description='Retries of a failed "
        "request'/>"
        "  <Option name='URL' type='string' description='Service base address' "
        "alt_config_option='SEAWX_BASE_URL'/>"
        "  <Option name='WMS_AUTH' type='string-select' default='header' "
        "alt_config_option='SEAWX_WMS_AUTH'>"
        "    <Value>header</Value><Value>query</Value><Value>basic</Value>"
        "  </Option>"
        "  <Option name='STATUS' type='string-select' description='SEAWX:storms: active "
        "(default), inactive or all'><Value>active</Value><Value>inactive</Value>"
        "<Value>all</Value></Option>"
        "  <Option name='ID' type='string' description='SEAWX:storms: ATCF id'/>"
        "  <Option name='NAME' type='string' description='SEAWX:storms: storm name'/>"
        "  <Option name='CATEGORY' type='string' description='SEAWX:storms: minimum category "
        "code (XX DS IN PT LO SS TD TS TC1..TC5)'/>"
        "  <Option name='INTENSITY' type='float' description='SEAWX:storms: minimum sustained "
        "wind, knots'/>"
        "  <Option name='REGION' type='string' description='SEAWX:storms: basin or sub-basin'/>"
        "  <Option name='PERIOD' type='string' description='SEAWX:storms: START/END, ISO 8601'/>"
        "  <Option name='DATA_FILTER' type='string-select' description='SEAWX:storms: tracks'>"
        "<Value>all</Value><Value>analysis</Value><Value>forecast</Value></Option>"
        "  <Option name='LIMIT' type='int' description='SEAWX:storms: page size, 1 to 100'/>"
        "  <Option name='OFFSET' type='int' description='SEAWX:storms: storms skipped'/>"
        "  <Option name='MAX_STORMS' type='int' description='SEAWX:storms: cap on storms'/>"
        "  <Option name='PATH' type='string' description='SEAWX:kmz: the storm KMZ file'/>"
        "</OpenOptionList>");
    poDriver->pfnIdentify = SEAWXIdentify;
    poDriver->pfnOpen = SEAWXOpen;
    GetGDALDriverManager()->RegisterDriver(poDriver);
}
