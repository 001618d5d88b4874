/*
 * seawx_gdal.h: the GDAL plugin's classes. They hold handles of the C core
 * and call it; what is not about GDAL's object model lives in lib/.
 */
#ifndef SEAWX_GDAL_H
#define SEAWX_GDAL_H

#include "gdal_pam.h"
#include "gdal_priv.h"
#include "ogrsf_frmts.h"

extern "C" {
#include "seawx/connstr.h"
#include "seawx/diskcache.h"
#include "seawx/http.h"
#include "seawx/wms_map.h"
}

#include <memory>
#include <mutex>
#include <vector>

/* Owners of the core's handles: each frees with the core's *_free(). */
template <typename T, void (*Free)(T *)> struct SEAWXFreer {
    void operator()(T *p) const
    {
        Free(p);
    }
};
using SEAWXConnstrPtr = std::unique_ptr<swx_connstr, SEAWXFreer<swx_connstr, swx_connstr_free>>;
using SEAWXClientPtr = std::unique_ptr<swx_client, SEAWXFreer<swx_client, swx_client_free>>;
using SEAWXCapsPtr = std::unique_ptr<swx_caps, SEAWXFreer<swx_caps, swx_caps_free>>;
using SEAWXMapPtr = std::unique_ptr<swx_map, SEAWXFreer<swx_map, swx_map_free>>;

/* The merged options of one open: connection string items, then open options
 * (which win), read once by the core. */
class SEAWXOptions
{
  public:
    SEAWXOptions() = default;
    SEAWXOptions(const SEAWXOptions &) = delete;
    SEAWXOptions &operator=(const SEAWXOptions &) = delete;

    bool Parse(const char *pszConnection, CSLConstList papszOpenOptions);
    const char *Get(const char *pszKey) const;
    const char *Kind() const;
    /* A connection string for the same options with some items changed. */
    CPLString With(const char *pszKey, const char *pszValue, const char *pszKey2 = nullptr,
                   const char *pszValue2 = nullptr) const;
    swx_connstr *Raw()
    {
        return m_poCS.get();
    }
    /* Without a kind (WMS layers): the map's options, read by the core. */
    const swx_map_opts &Map() const
    {
        return m_sMap;
    }
    /* Every kind: url, timeout and retries, read by the core. */
    const swx_service_opts &Service() const
    {
        return m_sMap.service;
    }

  private:
    SEAWXConnstrPtr m_poCS{};
    swx_map_opts m_sMap{}; /* strings point into m_poCS */
};

/* A client configured from GDAL configuration options (which fall back to the
 * environment) and the connection's URL / WMS_AUTH items. */
SEAWXClientPtr SEAWXMakeClient(const SEAWXOptions &oOpts);
/* Refuses (one GDAL error naming the kind and its options) a connection
 * string key of a point-data or file kind that is not in papszKeys (NULL
 * ended); NATIVE_DATA, which ogr2ogr passes to every vector driver, passes. */
bool SEAWXCheckKeys(const char *pszKind, swx_connstr *cs, const char *const *papszKeys);
/* The same, owned by the caller (swx_client_free). */
swx_client *SEAWXCreateClient(const SEAWXOptions &oOpts);

/* The capabilities of a bundle, fetched or (within SEAWX_CAPS_TTL seconds of
 * the last fetch with the same service, auth and key) parsed again from the
 * document kept then; nullptr after a reported error. Caller frees. */
swx_caps *SEAWXGetCaps(const SEAWXOptions &oOpts, swx_client *psClient, const char *pszBundle);

/* Reports the core's last error as a GDAL error. */
void SEAWXReportError(CPLErr eClass, const char *pszContext);

/* $SEAWX_CACHE_DIR (also a configuration option), else $XDG_CACHE_HOME/seawx,
 * else $HOME/.cache/seawx, with pszSub appended; "" when no home is known. */
CPLString SEAWXCacheFolder(const char *pszSub);

/* The disk cache of a folder and size limit, shared by every dataset of the
 * process that uses the same two (QGIS opens datasets in several threads; the
 * handle is thread-safe). */
std::shared_ptr<swx_diskcache> SEAWXSharedCache(const char *pszDir, uint64_t nMaxBytes);

class SEAWXRasterBand;

/* A WMS layer as a raster. Level 0 is the dataset users open; each overview
 * level is a dataset of its own, owned by level 0, sharing the map and client. */
class SEAWXRasterDataset final : public GDALPamDataset
{
    friend class SEAWXRasterBand;

  public:
    static GDALDataset *Open(GDALOpenInfo *poOpenInfo, SEAWXOptions &oOpts, SEAWXClientPtr poClient,
                             SEAWXCapsPtr poCaps);
    ~SEAWXRasterDataset() override;

    CPLErr GetGeoTransform(double *padfTransform) override;
    const OGRSpatialReference *GetSpatialRef() const override;
    /* The "LEGEND" domain: FILE, the path of the layer style's legend PNG,
     * fetched from the service on the first ask and kept in the cache folder
     * (SEAWXCacheFolder("legends")), for QGIS's legend image and layouts. */
    /* The "QGIS" domain: QLR, the layer definition of the layer's run
     * (seawx/wms_qlr.h, as `seawx qlr` writes it) with the connection's
     * style, CRS and address and the legend file: the QGIS plugin makes its
     * time groups of it. */
    const char *GetMetadataItem(const char *pszName, const char *pszDomain = "") override;
    char **GetMetadata(const char *pszDomain = "") override;
    char **GetMetadataDomainList() override;

  protected:
    CPLErr IRasterIO(GDALRWFlag eRWFlag, int nXOff, int nYOff, int nXSize, int nYSize, void *pData,
                     int nBufXSize, int nBufYSize, GDALDataType eBufType, int nBandCount,
                     int *panBandMap, GSpacing nPixelSpace, GSpacing nLineSpace,
                     GSpacing nBandSpace, GDALRasterIOExtraArg *psExtraArg) override;

  private:
    SEAWXRasterDataset(SEAWXRasterDataset *poBase, int nLevel);
    /* Fetches the legend into the cache folder once; "" after a reported error. */
    const CPLString &LegendFile();
    /* Writes the layer definition once; "" after a reported error. */
    const CPLString &LayerDefinition();
    /* Fetches the blocks of this level that cover the window and are not yet
     * in GDAL's block cache, in parallel, into the cache of all four bands. */
    CPLErr Prefetch(int nXOff, int nYOff, int nXSize, int nYSize, int nBufXSize, int nBufYSize);
    /* Fetches the listed blocks; the block (nWantX, nWantY) of band nWantBand
     * goes to pWant instead of the cache. */
    CPLErr FetchBlocks(const std::vector<int> &anBlocks, int nWantBand, int nWantX, int nWantY,
                       void *pWant);
    static int OnBlock(void *ud, int level, int bx, int by, const uint8_t *rgba, int w, int h);
    /* Whether a read goes to the service as its exact window at the buffer's
     * size (ReadWindow) rather than by blocks: reads at least 64 pixels
     * across and down that resample, or that are not block-aligned, span
     * several blocks and are not all in GDAL's block cache already. */
    bool WantsWindow(int nXOff, int nYOff, int nXSize, int nYSize, int nBufXSize, int nBufYSize);
    /* The window's RGBA pixels at the buffer's size, from the process's
     * memory of recent windows or fetched (swx_map_read_window) in a few
     * strips at once; nullptr after a reported error. */
    std::shared_ptr<const std::vector<GByte>> ReadWindow(int nXOff, int nYOff, int nXSize,
                                                         int nYSize, int nBufXSize, int nBufYSize,
                                                         const GDALRasterIOExtraArg *psExtraArg);
    /* A read served by ReadWindow: bands copied out of its pixels. */
    CPLErr WindowIO(int nXOff, int nYOff, int nXSize, int nYSize, void *pData, int nBufXSize,
                    int nBufYSize, GDALDataType eBufType, int nBandCount, const int *panBandMap,
                    GSpacing nPixelSpace, GSpacing nLineSpace, GSpacing nBandSpace,
                    GDALRasterIOExtraArg *psExtraArg);
    /* Fetches the rectangle of blocks [bx0, bx1] x [by0, by1] as one window in
     * strips and keeps it for the scan's next reads (ScanIO), in place of the
     * last one. */
    CPLErr FetchScan(int bx0, int by0, int bx1, int by1);
    bool ScanCovers(int nXOff, int nYOff, int nXSize, int nYSize) const;
    /* A 1:1 read within the scan's window, copied out of it. */
    void ScanIO(int nXOff, int nYOff, int nXSize, int nYSize, void *pData, GDALDataType eBufType,
                int nBandCount, const int *panBandMap, GSpacing nPixelSpace, GSpacing nLineSpace,
                GSpacing nBandSpace);

    SEAWXRasterDataset *m_poBase = nullptr; /* level 0; this for level 0 */
    int m_nLevel = 0;
    /* Owned by level 0 (the overviews borrow them): the cache outlives the
     * map that writes to it, the mutex guards the single-threaded client. */
    std::shared_ptr<swx_diskcache> m_poCache{};
    SEAWXMapPtr m_poMapOwned{};
    SEAWXClientPtr m_poClientOwned{};
    std::unique_ptr<std::mutex> m_poMutexOwned{};
    swx_map *m_psMap = nullptr;
    swx_client *m_psClient = nullptr;
    std::mutex *m_poMutex = nullptr;
    int m_nMaxConnections = 32;
    OGRSpatialReference m_oSRS{};
    std::vector<std::unique_ptr<SEAWXRasterDataset>> m_apoOverviews{};

    /* While FetchBlocks runs: where the wanted block goes. */
    int m_nWantBand = 0, m_nWantX = -1, m_nWantY = -1;
    void *m_pWant = nullptr;

    /* Where a sequential scan (gdal_translate's swaths) would read next: its
     * columns and first row. Reads that continue it fetch ahead. */
    int m_nScanXOff = -1, m_nScanXSize = 0, m_nScanNextY = -1;
    /* The window FetchScan fetched last: RGBA pixels, and where it lies. */
    std::unique_ptr<GByte[]> m_pabyScan{};
    int m_nScanX0 = 0, m_nScanY0 = 0, m_nScanXS = 0, m_nScanYS = 0;

    /* The legend's file once fetched (level 0 only), and the domain's list. */
    CPLString m_osServiceURL{}; /* names the legend's file */
    bool m_bLegendTried = false;
    CPLString m_osLegendFile{};
    CPLStringList m_aosLegendMD{};
    /* The connection's style, CRS and address as given (empty: not), named in
     * the layer definition's strings; the definition once written. */
    CPLString m_osGivenStyle{}, m_osGivenCRS{}, m_osGivenURL{};
    CPLString m_osQLR{};
    CPLStringList m_aosQGISMD{};
};

class SEAWXRasterBand final : public GDALPamRasterBand
{
    friend class SEAWXRasterDataset;

  public:
    SEAWXRasterBand(SEAWXRasterDataset *poDS, int nBand);

    CPLErr IReadBlock(int nBlockXOff, int nBlockYOff, void *pImage) override;
    GDALColorInterp GetColorInterpretation() override;
    int GetOverviewCount() override;
    GDALRasterBand *GetOverview(int i) override;

  protected:
    CPLErr IRasterIO(GDALRWFlag eRWFlag, int nXOff, int nYOff, int nXSize, int nYSize, void *pData,
                     int nBufXSize, int nBufYSize, GDALDataType eBufType, GSpacing nPixelSpace,
                     GSpacing nLineSpace, GDALRasterIOExtraArg *psExtraArg) override;
};

/* Lists subdatasets only: the bundles, or the layers of one bundle. */
class SEAWXListDataset final : public GDALPamDataset
{
  public:
    static std::unique_ptr<GDALDataset> OpenBundles(const SEAWXOptions &oOpts);
    static std::unique_ptr<GDALDataset> OpenLayers(const SEAWXOptions &oOpts,
                                                   const swx_caps *psCaps);
};

/* ---- vector side: storms (seawx_vector.cpp) ---- */

class SEAWXStormDataset;

/* One kind of storm feature (storms, track_points, forecast_points,
 * forecast_lines, wind_radii) as a layer. Attribute filters on storm-level
 * fields are also sent to the service as query parameters (a superset of the
 * answer); GDAL then evaluates the whole filter on what comes back. */
class SEAWXStormLayer final : public OGRLayer
{
  public:
    SEAWXStormLayer(SEAWXStormDataset *poDS, int nKind);
    ~SEAWXStormLayer() override;

    void ResetReading() override;
    OGRFeature *GetNextFeature() override;
    GIntBig GetFeatureCount(int bForce) override;
    OGRErr SetAttributeFilter(const char *pszQuery) override;
    OGRFeatureDefn *GetLayerDefn() override
    {
        return m_poDefn;
    }
    int TestCapability(const char *pszCap) override;

    /* The query parameters the current attribute filter adds ("" for none). */
    const CPLString &PushedDown() const
    {
        return m_osPushed;
    }

  private:
    static int OnFeature(void *ud, const struct swx_storm_feature *f);
    std::unique_ptr<OGRFeature> Translate(const struct swx_storm_feature *f);
    const struct swx_storm_list *Storms();

    SEAWXStormDataset *m_poDS;
    int m_nKind;
    OGRFeatureDefn *m_poDefn;
    struct swx_storm_geo *m_psGeo = nullptr;
    size_t m_iStorm = 0;
    std::vector<std::unique_ptr<OGRFeature>> m_apoPending{};
    size_t m_iPending = 0;
    GIntBig m_nNextFID = 1;
    CPLStringList m_aosPushed{}; /* key=value pairs for the service */
    CPLString m_osPushed{};
};

/* Deleters of what the storm dataset owns: a storm list (its storms, then
 * itself) and the reference-counted SRS. */
struct SEAWXStormListFree {
    void operator()(struct swx_storm_list *psList) const;
};
struct SEAWXSRSRelease {
    void operator()(OGRSpatialReference *poSRS) const;
};

/* SEAWX:storms (the service's /storm/json with filters) or SEAWX:kmz (a storm
 * KMZ file): the five storm layers, EPSG:4326. */
class SEAWXStormDataset final : public GDALDataset
{
    friend class SEAWXStormLayer;

  public:
    static GDALDataset *Open(GDALOpenInfo *poOpenInfo, SEAWXOptions &oOpts);
    ~SEAWXStormDataset() override;

    int GetLayerCount() override
    {
        return static_cast<int>(m_apoLayers.size());
    }
    OGRLayer *GetLayer(int i) override;
    int TestCapability(const char *pszCap) override;

  private:
    SEAWXStormDataset() = default;
    /* The storms selected by the dataset's options plus extra parameters,
     * fetched once per distinct selection; nullptr after a reported error. */
    const struct swx_storm_list *Storms(const CPLStringList &aosExtra);

    bool m_bKMZ = false;
    CPLString m_osPath{};
    swx_client *m_psClient = nullptr;
    CPLStringList m_aosQuery{}; /* the filters of the connection string */
    CPLString m_osCachedKey{};
    std::unique_ptr<struct swx_storm_list, SEAWXStormListFree> m_psCached{};
    bool m_bCachedFailed = false;
    std::unique_ptr<OGRSpatialReference, SEAWXSRSRelease> m_poSRS{};
    std::vector<std::unique_ptr<SEAWXStormLayer>> m_apoLayers{};
};

/* Point, time-series and vessel answers as OGR layers (seawx_points.cpp):
 * kinds soil, soil-history, weather, tides, tide-extrema, forecast,
 * forecast-latest, vessels. */
bool SEAWXIsPointsKind(const char *pszKind);
GDALDataset *SEAWXOpenPoints(GDALOpenInfo *poOpenInfo, SEAWXOptions &oOpts);
/* The service's files as raster subdatasets (seawx_files.cpp): kinds
 * soil-moisture, current-weather, forecast-files. */
bool SEAWXIsFilesKind(const char *pszKind);
GDALDataset *SEAWXOpenFiles(GDALOpenInfo *poOpenInfo, SEAWXOptions &oOpts);

#endif
