/*
 * seawx_driver.cpp: registration of the SEAWX driver, connection options, and
 * opening: "SEAWX:" lists the bundles, "SEAWX:bundle=B" the layers of a
 * bundle, and "SEAWX:bundle=B,layer=L" (or variable=V) opens a layer as a
 * raster. docs/gdal-qgis.md documents every option.
 */
#include "seawx_gdal.h"

#include "cpl_string.h"

extern "C" {
#include "seawx/diskcache.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/setting.h"
#include "seawx/wms.h"
}

#include <dlfcn.h>

#include <algorithm>
#include <ctime>
#include <functional>
#include <iterator>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <utility>

/* ---- options ---- */

bool SEAWXOptions::Parse(const char *pszConnection, CSLConstList papszOpenOptions)
{
    swx_connstr *psCS = nullptr;
    if (swx_connstr_parse(&psCS, pszConnection) != 0) {
        SEAWXReportError(CE_Failure, "invalid connection string");
        return false;
    }
    m_poCS.reset(psCS);
    for (CSLConstList p = papszOpenOptions; p && *p; ++p) {
        char *pszKey = nullptr;
        const char *pszValue = CPLParseNameValue(*p, &pszKey);
        if (pszKey && pszValue) {
            CPLString osKey(pszKey);
            osKey.tolower();
            if (swx_connstr_set(psCS, osKey.c_str(), pszValue) != 0) {
                CPLFree(pszKey);
                SEAWXReportError(CE_Failure, "invalid open option");
                return false;
            }
        }
        CPLFree(pszKey);
    }
    /* Numbers and switches are read once, by the core, before anything is
     * sent: a typo is an error, never a silent default. The WMS layers' keys
     * are all known here; the other kinds check their own keys. */
    int rc =
        Kind() ? swx_service_opts_parse(&m_sMap.service, psCS) : swx_map_opts_parse(&m_sMap, psCS);
    if (rc != 0) {
        SEAWXReportError(CE_Failure, "invalid option");
        return false;
    }
    return true;
}

const char *SEAWXOptions::Get(const char *pszKey) const
{
    const char *v = swx_connstr_get(m_poCS.get(), pszKey);
    return v && *v ? v : nullptr;
}

const char *SEAWXOptions::Kind() const
{
    return swx_connstr_kind(m_poCS.get());
}

CPLString SEAWXOptions::With(const char *pszKey, const char *pszValue, const char *pszKey2,
                             const char *pszValue2) const
{
    CPLString osOut;
    std::unique_ptr<char, decltype(&free)> poCopy(swx_connstr_format(m_poCS.get()), free);
    swx_connstr *psCS = nullptr;
    if (poCopy && swx_connstr_parse(&psCS, poCopy.get()) == 0) {
        SEAWXConnstrPtr poCS(psCS);
        swx_connstr_set(psCS, pszKey, pszValue);
        if (pszKey2)
            swx_connstr_set(psCS, pszKey2, pszValue2);
        std::unique_ptr<char, decltype(&free)> poOut(swx_connstr_format(psCS), free);
        if (poOut)
            osOut = poOut.get();
    }
    return osOut;
}

void SEAWXReportError(CPLErr eClass, const char *pszContext)
{
    const char *line = swx_error_last();
    CPLError(eClass, CPLE_AppDefined, "SEAWX: %s", line && *line ? line : pszContext);
}

SEAWXClientPtr SEAWXMakeClient(const SEAWXOptions &oOpts)
{
    const swx_service_opts &sService = oOpts.Service();
    swx_client_opts o = {};
    o.base_url = sService.url ? sService.url : CPLGetConfigOption("SEAWX_BASE_URL", nullptr);
    o.vessels_url = CPLGetConfigOption("SEAWX_VESSELS_URL", nullptr);
    o.api_key = CPLGetConfigOption("SEAWX_API_KEY", nullptr);
    if (!o.api_key || !*o.api_key) {
        o.api_key = nullptr;
        o.api_key_file = CPLGetConfigOption("SEAWX_API_KEY_FILE", nullptr);
    }
    o.wms_auth = oOpts.Get("wms_auth") ? oOpts.Get("wms_auth")
                                       : CPLGetConfigOption("SEAWX_WMS_AUTH", nullptr);
    o.wms_password = CPLGetConfigOption("SEAWX_WMS_PASSWORD", nullptr);
    o.user_agent = "seawx-gdal/" SEAWX_VERSION;
    if (sService.timeout_s > 0)
        o.timeout_ms = long(sService.timeout_s) * 1000;
    if (sService.retries >= 0)
        o.max_retries = sService.retries > 0 ? sService.retries : -1;
    o.insecure = CPLTestBool(CPLGetConfigOption("SEAWX_INSECURE", "NO"));
    /* Trusted certificates: the plugin's own setting, else GDAL's. */
    o.ca_file =
        CPLGetConfigOption("SEAWX_CA_BUNDLE", CPLGetConfigOption("CURL_CA_BUNDLE", nullptr));
    swx_client *psClient = nullptr;
    if (swx_client_new(&psClient, &o) != 0) {
        SEAWXReportError(CE_Failure, "cannot set the client up");
        return nullptr;
    }
    SEAWXClientPtr poClient(psClient);
    if (!swx_client_has_key(psClient)) {
        CPLError(CE_Failure, CPLE_OpenFailed,
                 "SEAWX: no API key: set SEAWX_API_KEY (environment or --config), or "
                 "SEAWX_API_KEY_FILE");
        return nullptr;
    }
    return poClient;
}

swx_client *SEAWXCreateClient(const SEAWXOptions &oOpts)
{
    return SEAWXMakeClient(oOpts).release();
}

/* ---- capabilities, kept a minute ---- */

/* QGIS opens a raster dataset again for every render job (each pan or zoom,
 * in the rendering thread), and each open needs the bundle's capabilities: the
 * documents fetched in the last SEAWX_CAPS_TTL seconds (a configuration
 * option too; default 60, 0 to fetch every time) are parsed again instead of
 * fetched again. A new run then shows up at most that long after the service
 * lists it. Keyed by the service's address, the bundle, the WMS auth mode and
 * a hash of the key settings, so a different key never gets another's answer;
 * only documents that parsed are kept. */
swx_caps *SEAWXGetCaps(const SEAWXOptions &oOpts, swx_client *psClient, const char *pszBundle)
{
    struct Doc {
        std::string osXML;
        double dfAt = 0;
        /* The document parsed once: every dataset opened again holds a
         * reference (QGIS opens one for each render). */
        std::shared_ptr<swx_caps> poCaps{};
    };
    static std::mutex oMutex;
    static std::map<std::string, Doc> oDocs;
    const double dfTTL = CPLAtof(CPLGetConfigOption("SEAWX_CAPS_TTL", "60"));
    const char *pszURL =
        oOpts.Service().url ? oOpts.Service().url : CPLGetConfigOption("SEAWX_BASE_URL", "");
    const char *pszAuth =
        oOpts.Get("wms_auth") ? oOpts.Get("wms_auth") : CPLGetConfigOption("SEAWX_WMS_AUTH", "");
    const std::string osKeys = std::string(CPLGetConfigOption("SEAWX_API_KEY", "")) + "\n" +
                               CPLGetConfigOption("SEAWX_API_KEY_FILE", "") + "\n" +
                               CPLGetConfigOption("SEAWX_WMS_PASSWORD", "");
    const std::string osKey = std::string(pszURL) + "\n" + pszBundle + "\n" + pszAuth + "\n" +
                              std::to_string(std::hash<std::string>()(osKeys));
    const double dfNow = double(time(nullptr));
    swx_caps *psCaps = nullptr;
    if (dfTTL > 0) {
        std::lock_guard<std::mutex> oLock(oMutex);
        auto oIt = oDocs.find(osKey);
        if (oIt != oDocs.end() && dfNow - oIt->second.dfAt < dfTTL) {
            if (oIt->second.poCaps)
                return swx_caps_ref(oIt->second.poCaps.get());
            if (swx_caps_parse(&psCaps, oIt->second.osXML.data(), oIt->second.osXML.size()) == 0)
                return psCaps;
        }
    }
    char *pszXML = nullptr;
    size_t nLen = 0;
    if (swx_wms_get_caps_doc(&psCaps, &pszXML, &nLen, psClient, pszBundle) != 0) {
        SEAWXReportError(CE_Failure, "cannot read the capabilities");
        return nullptr;
    }
    if (dfTTL > 0) {
        std::lock_guard<std::mutex> oLock(oMutex);
        /* A handful of bundles and services: drop what is stale first. */
        for (auto oIt = oDocs.begin(); oIt != oDocs.end();)
            oIt = dfNow - oIt->second.dfAt >= dfTTL ? oDocs.erase(oIt) : std::next(oIt);
        if (oDocs.size() < 64)
            oDocs[osKey] = Doc{std::string(pszXML, nLen), dfNow,
                               std::shared_ptr<swx_caps>(swx_caps_ref(psCaps), swx_caps_free)};
    }
    free(pszXML);
    return psCaps;
}

/* ---- the disk cache ---- */

CPLString SEAWXCacheFolder(const char *pszSub)
{
    const char *pszOwn = CPLGetConfigOption("SEAWX_CACHE_DIR", nullptr);
    const char *pszXDG = getenv("XDG_CACHE_HOME");
    const char *pszHome = getenv("HOME");
    if (pszOwn && *pszOwn)
        return CPLFormFilename(pszOwn, pszSub, nullptr);
    if (pszXDG && *pszXDG)
        return CPLFormFilename(CPLFormFilename(pszXDG, "seawx", nullptr), pszSub, nullptr);
    if (pszHome && *pszHome)
        return CPLFormFilename(CPLFormFilename(pszHome, ".cache/seawx", nullptr), pszSub, nullptr);
    return CPLString();
}

std::shared_ptr<swx_diskcache> SEAWXSharedCache(const char *pszDir, uint64_t nMaxBytes)
{
    /* Handles in use, by folder and limit; a handle goes when its last
     * dataset closes. */
    static std::mutex oLock;
    static std::map<std::pair<std::string, uint64_t>, std::weak_ptr<swx_diskcache>> oOpen;
    std::lock_guard<std::mutex> oGuard(oLock);
    auto oKey = std::make_pair(std::string(pszDir), nMaxBytes);
    if (auto poCache = oOpen[oKey].lock())
        return poCache;
    swx_diskcache *psCache = nullptr;
    if (swx_diskcache_open(&psCache, pszDir, nMaxBytes) != 0)
        return nullptr;
    std::shared_ptr<swx_diskcache> poCache(psCache, swx_diskcache_free);
    oOpen[oKey] = poCache;
    for (auto it = oOpen.begin(); it != oOpen.end();)
        it = it->second.expired() ? oOpen.erase(it) : std::next(it);
    return poCache;
}

/* ---- listing ---- */

std::unique_ptr<GDALDataset> SEAWXListDataset::OpenBundles(const SEAWXOptions &oOpts)
{
    auto poDS = std::make_unique<SEAWXListDataset>();
    poDS->nPamFlags |= GPF_DISABLED; /* no SEAWX:....aux.xml in the working folder */
    CPLStringList aosSub;
    for (size_t i = 0; i < swx_wms_bundle_count(); i++) {
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
    swx_iso8601_format(s, t);
    return s;
}

std::unique_ptr<GDALDataset> SEAWXListDataset::OpenLayers(const SEAWXOptions &oOpts,
                                                          const swx_caps *psCaps)
{
    auto poDS = std::make_unique<SEAWXListDataset>();
    poDS->nPamFlags |= GPF_DISABLED; /* no SEAWX:....aux.xml in the working folder */
    CPLStringList aosSub;
    int n = 0;
    auto add = [&](const CPLString &osName, const CPLString &osDesc) {
        n++;
        aosSub.SetNameValue(CPLSPrintf("SUBDATASET_%d_NAME", n), osName.c_str());
        aosSub.SetNameValue(CPLSPrintf("SUBDATASET_%d_DESC", n), osDesc.c_str());
    };
    /* One "latest" entry per variable (and unit): it always resolves to the
     * newest complete run, so a saved project keeps showing fresh data. With
     * runs=all, every run follows. QGIS names a layer after the text before
     * " - " in the description, so that text tells the entries apart:
     * "t2m:K latest", "t2m:K run 2024-10-01T00Z". Fields with no time
     * dimension (the land-sea mask) come after all the others, with runs=all
     * after every run of the others too: opaque, they belong at the bottom of
     * the map, and QGIS stacks the layers it adds from its chooser in the
     * chooser's order, the first on top. */
    std::vector<CPLString> aosSeen;
    const size_t nLayers = swx_caps_layer_count(psCaps);
    for (int bStatic = 0; bStatic < 2; bStatic++) {
        for (size_t i = 0; i < nLayers; i++) {
            const swx_layer *l = swx_caps_layer(psCaps, i);
            if ((swx_layer_time(l) == nullptr) != (bStatic != 0))
                continue;
            const char *unit = swx_layer_unit(l);
            CPLString osVar(swx_layer_variable(l));
            if (unit)
                osVar += CPLString(":") + unit;
            if (std::find(aosSeen.begin(), aosSeen.end(), osVar) != aosSeen.end())
                continue;
            aosSeen.push_back(osVar);
            const swx_layer *latest = nullptr;
            if (swx_caps_latest(&latest, psCaps, swx_layer_variable(l), unit ? unit : "") != 0)
                continue;
            const char *title = swx_layer_title(latest);
            int64_t run = 0;
            CPLString osRun = swx_layer_run_time(&run, latest) == 0
                                  ? TimeString(run).substr(0, 13) + "Z"
                                  : CPLString("-");
            add(oOpts.With("variable", osVar.c_str(), "run", "latest"),
                CPLSPrintf("%s latest - %s%slatest complete run (now %s)", osVar.c_str(),
                           title ? title : "", title ? ", " : "", osRun.c_str()));
        }
        if (!oOpts.Map().all_runs)
            continue;
        for (size_t i = 0; i < nLayers; i++) {
            const swx_layer *l = swx_caps_layer(psCaps, i);
            const char *unit = swx_layer_unit(l);
            const swx_timedim *td = swx_layer_time(l);
            if ((td == nullptr) != (bStatic != 0))
                continue;
            int64_t run = 0;
            CPLString osRun = swx_layer_run_time(&run, l) == 0 ? TimeString(run).substr(0, 13) + "Z"
                                                               : CPLString("-");
            CPLString osTimes =
                td ? CPLSPrintf("%d valid times", int(swx_timedim_count(td))) : "no time dimension";
            const char *title = swx_layer_title(l);
            add(oOpts.With("layer", swx_layer_name(l)),
                CPLSPrintf("%s%s%s run %s - %s%s%s%s", swx_layer_variable(l), unit ? ":" : "",
                           unit ? unit : "", osRun.c_str(), title ? title : "", title ? ", " : "",
                           osTimes.c_str(),
                           td && !swx_caps_run_is_complete(psCaps, l) ? " (in production)" : ""));
        }
    }
    poDS->SetMetadata(aosSub.List(), "SUBDATASETS");
    return poDS;
}

/* ---- the driver ---- */

static int SEAWXIdentify(GDALOpenInfo *poOpenInfo)
{
    return STARTS_WITH_CI(poOpenInfo->pszFilename, SWX_CONNSTR_PREFIX);
}

/* The dataset kinds (kind=...): how each is told, opened, and whether it is
 * vector (served read-only when opened for update). One table, so that a new
 * kind is dispatched and treated in update mode alike. */
struct SEAWXKind {
    bool (*pfnIs)(const char *pszKind);
    GDALDataset *(*pfnOpen)(GDALOpenInfo *poOpenInfo, SEAWXOptions &oOpts);
    bool bVector;
};

static bool SEAWXIsStormsKind(const char *pszKind)
{
    return EQUAL(pszKind, "storms") || EQUAL(pszKind, "kmz");
}

static GDALDataset *SEAWXOpenStorms(GDALOpenInfo *poOpenInfo, SEAWXOptions &oOpts)
{
    return SEAWXStormDataset::Open(poOpenInfo, oOpts);
}

static const SEAWXKind asKinds[] = {
    {SEAWXIsStormsKind, SEAWXOpenStorms, true},
    {SEAWXIsPointsKind, SEAWXOpenPoints, true},
    {SEAWXIsFilesKind, SEAWXOpenFiles, false},
};

static const SEAWXKind *SEAWXFindKind(const char *pszKind)
{
    for (const SEAWXKind &k : asKinds)
        if (pszKind && k.pfnIs(pszKind))
            return &k;
    return nullptr;
}

static GDALDataset *SEAWXOpen(GDALOpenInfo *poOpenInfo)
{
    if (!SEAWXIdentify(poOpenInfo))
        return nullptr;
    SEAWXOptions oOpts;
    if (!oOpts.Parse(poOpenInfo->pszFilename, poOpenInfo->papszOpenOptions))
        return nullptr;
    /* Update mode. QGIS opens every vector source for update first and falls
     * back to read-only, so a refusal would print an error for each storm
     * layer a user adds. A vector open is served read-only instead: the
     * layers and the dataset answer no write capability (QGIS then offers no
     * editing) and a write is refused by GDAL. A raster open for update is
     * still refused, as before. */
    const SEAWXKind *psKind = SEAWXFindKind(oOpts.Kind());
    if (poOpenInfo->eAccess == GA_Update) {
        if (!psKind || !psKind->bVector || (poOpenInfo->nOpenFlags & GDAL_OF_RASTER) ||
            !(poOpenInfo->nOpenFlags & GDAL_OF_VECTOR)) {
            CPLError(CE_Failure, CPLE_NotSupported,
                     "SEAWX: the service is read-only; open without update mode");
            return nullptr;
        }
        CPLDebug("SEAWX", "update mode asked for a vector source: opened read-only");
    }
    if (psKind)
        return psKind->pfnOpen(poOpenInfo, oOpts);
    if (oOpts.Kind()) {
        CPLError(CE_Failure, CPLE_OpenFailed, "SEAWX: unknown dataset kind '%s'", oOpts.Kind());
        return nullptr;
    }
    if (!(poOpenInfo->nOpenFlags & GDAL_OF_RASTER))
        return nullptr;
    const char *pszBundle = oOpts.Map().bundle;
    if (!pszBundle)
        return SEAWXListDataset::OpenBundles(oOpts).release();
    if (swx_wms_bundle_check(pszBundle) != 0) {
        SEAWXReportError(CE_Failure, "unknown bundle");
        return nullptr;
    }
    SEAWXClientPtr poClient = SEAWXMakeClient(oOpts);
    if (!poClient)
        return nullptr;
    swx_caps *psCaps = SEAWXGetCaps(oOpts, poClient.get(), pszBundle);
    if (!psCaps)
        return nullptr;
    SEAWXCapsPtr poCaps(psCaps);
    if (!oOpts.Map().layer && !oOpts.Map().variable)
        return SEAWXListDataset::OpenLayers(oOpts, psCaps).release();
    /* The raster dataset takes the client and the capabilities over. */
    return SEAWXRasterDataset::Open(poOpenInfo, oOpts, std::move(poClient), std::move(poCaps));
}

/* ---- registration ---- */

/* An XML attribute value: the descriptions hold no quote or '<' today, but
 * one that does must not break the list. */
static CPLString Attr(const char *pszText)
{
    CPLString osOut;
    char *pszEsc = CPLEscapeString(pszText, -1, CPLES_XML);
    osOut = pszEsc;
    CPLFree(pszEsc);
    return osOut;
}

static void AddOptions(CPLString &osXML, const swx_opt *pasOpts, size_t nOpts, const char *pszScope)
{
    static const char *const apszTypes[] = {"string", "string-select", "int", "float", "boolean"};
    for (size_t i = 0; i < nOpts; i++) {
        const swx_opt &o = pasOpts[i];
        osXML += CPLSPrintf("  <Option name='%s' type='%s' scope='%s'",
                            CPLString(o.key).toupper().c_str(), apszTypes[o.type], pszScope);
        if (o.def)
            osXML += CPLSPrintf(" default='%s'", Attr(o.def).c_str());
        if (o.help)
            osXML += CPLSPrintf(" description='%s'", Attr(o.help).c_str());
        if (o.config)
            osXML += CPLSPrintf(" alt_config_option='%s'", o.config);
        if (!o.choices) {
            osXML += "/>";
            continue;
        }
        osXML += ">";
        for (const char *const *p = o.choices; *p; ++p)
            osXML += CPLSPrintf("<Value>%s</Value>", Attr(*p).c_str());
        osXML += "</Option>";
    }
}

/* The open options: the WMS layers' (raster) and the service's (both) from
 * the core's descriptions, then the storms' and the KMZ's (vector). QGIS
 * shows a raster source the options of raster scope only. */
static CPLString OpenOptionList()
{
    CPLString osXML = "<OpenOptionList>";
    size_t n = 0;
    const swx_opt *pasMap = swx_map_opt_list(&n);
    AddOptions(osXML, pasMap, n, "raster");
    const swx_opt *pasService = swx_service_opt_list(&n);
    AddOptions(osXML, pasService, n, "raster,vector");
    osXML +=
        "  <Option name='STATUS' type='string-select' scope='vector' description='SEAWX:storms: "
        "active (default), inactive or all'><Value>active</Value><Value>inactive</Value>"
        "<Value>all</Value></Option>"
        "  <Option name='ID' type='string' scope='vector' description='SEAWX:storms: ATCF id'/>"
        "  <Option name='NAME' type='string' scope='vector' description='SEAWX:storms: storm "
        "name'/>"
        "  <Option name='CATEGORY' type='string' scope='vector' description='SEAWX:storms: "
        "minimum category code (XX DS IN PT LO SS TD TS TC1..TC5)'/>"
        "  <Option name='INTENSITY' type='float' scope='vector' description='SEAWX:storms: "
        "minimum sustained wind, knots'/>"
        "  <Option name='REGION' type='string' scope='vector' description='SEAWX:storms: basin or "
        "sub-basin'/>"
        "  <Option name='PERIOD' type='string' scope='vector' description='SEAWX:storms: "
        "START/END, ISO 8601'/>"
        "  <Option name='DATA_FILTER' type='string-select' scope='vector' "
        "description='SEAWX:storms: tracks'><Value>all</Value><Value>analysis</Value>"
        "<Value>forecast</Value></Option>"
        "  <Option name='LIMIT' type='int' scope='vector' description='SEAWX:storms: page size, 1 "
        "to 100'/>"
        "  <Option name='OFFSET' type='int' scope='vector' description='SEAWX:storms: storms "
        "skipped'/>"
        "  <Option name='MAX_STORMS' type='int' scope='vector' description='SEAWX:storms: cap on "
        "storms'/>"
        "  <Option name='PATH' type='string' scope='vector' description='SEAWX:kmz: the storm KMZ "
        "file'/>"
        "</OpenOptionList>";
    return osXML;
}

extern "C" __attribute__((visibility("default"))) void GDALRegister_SEAWX();

/* The address of seawx's documentation, for the driver's help topic: the
 * build's SEAWX_DOC_URL when set, else the README installed under the
 * plugin's own prefix (.../lib/<arch>/gdalplugins/gdal_SEAWX.so ->
 * .../share/doc/seawx/README.md, as the package puts it), else the one
 * cmake --install put under its prefix, else the source tree's (a build tree
 * used through GDAL_DRIVER_PATH); "" when there is none. */
static CPLString DocURL()
{
    if (*SEAWX_DOC_URL)
        return SEAWX_DOC_URL;
    VSIStatBufL sStat;
    Dl_info sInfo;
    if (dladdr(reinterpret_cast<void *>(&GDALRegister_SEAWX), &sInfo) && sInfo.dli_fname) {
        CPLString osDir = CPLGetPath(sInfo.dli_fname);
        for (int i = 0; i < 4 && osDir.size() > 1; i++) {
            osDir = CPLGetPath(osDir);
            CPLString osDoc = CPLFormFilename(osDir, "share/doc/seawx/README.md", nullptr);
            if (VSIStatL(osDoc, &sStat) == 0)
                return "file://" + osDoc + "#qgis";
        }
    }
    for (const char *pszDoc : {SEAWX_INSTALLED_README, SEAWX_SOURCE_README})
        if (VSIStatL(pszDoc, &sStat) == 0)
            return CPLString("file://") + pszDoc + "#qgis";
    return "";
}

void GDALRegister_SEAWX()
{
    if (!GDAL_CHECK_VERSION("SEAWX"))
        return;
    if (GDALGetDriverByName("SEAWX") != nullptr)
        return;
    /* The library's messages name GDAL's configuration options. */
    static const char *apszSettings[SWX_SET_COUNT];
    apszSettings[SWX_SET_CA_BUNDLE] = "SEAWX_CA_BUNDLE or CURL_CA_BUNDLE";
    apszSettings[SWX_SET_INSECURE] = "SEAWX_INSECURE=YES";
    swx_setting_names(apszSettings);
    auto poDriver = std::make_unique<GDALDriver>();
    poDriver->SetDescription("SEAWX");
    poDriver->SetMetadataItem(GDAL_DCAP_RASTER, "YES");
    poDriver->SetMetadataItem(GDAL_DCAP_VECTOR, "YES");
    poDriver->SetMetadataItem(GDAL_DMD_LONGNAME, "Weather, Ocean and Vessel Data Service (seawx)");
    /* QGIS (3.22 and later) writes the help topic into its Options box as
     * <a href="https://gdal.org/TOPIC">, unescaped: a topic that closes the
     * attribute and gives a second href makes the link open seawx's
     * documentation, since Qt keeps the last href. Should QGIS ever escape the
     * topic, the link still lands on gdal.org's home page ("#..."), not on a
     * missing page. No documentation found: no topic, and QGIS shows no link. */
    const CPLString osDoc = DocURL();
    if (!osDoc.empty())
        poDriver->SetMetadataItem(GDAL_DMD_HELPTOPIC, ("#\" href=\"" + osDoc).c_str());
    poDriver->SetMetadataItem(GDAL_DMD_CONNECTION_PREFIX, SWX_CONNSTR_PREFIX);
    poDriver->SetMetadataItem(GDAL_DMD_SUBDATASETS, "YES");
    poDriver->SetMetadataItem(GDAL_DCAP_VIRTUALIO, "NO");
    poDriver->SetMetadataItem(GDAL_DMD_OPENOPTIONLIST, OpenOptionList().c_str());
    poDriver->pfnIdentify = SEAWXIdentify;
    poDriver->pfnOpen = SEAWXOpen;
    GetGDALDriverManager()->RegisterDriver(poDriver.release());
}
