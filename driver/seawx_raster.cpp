/*
 * seawx_raster.cpp: a WMS layer at one time as an RGBA raster with overviews.
 * Block-aligned reads go by blocks, one GetMap each, fetched in parallel before
 * GDAL's block-based reading runs so that it finds them in its cache; a scan
 * (a copy's swaths) fetches its rows as one window in strips instead and reads
 * its next swaths from that window. A read of
 * any other window, or one that resamples (a map canvas), is the service's
 * GetMap of that window at the buffer's size, sent as a few strips at once and
 * kept in memory for the other bands and the next render of the same view.
 */
#include "seawx_gdal.h"

extern "C" {
#include "seawx/atomicfile.h"
#include "seawx/diskcache.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/wms.h"
#include "seawx/wms_qlr.h"
}

#include "cpl_hash_set.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <list>
#include <new>
#include <string>
#include <utility>

/* The size limit of the disk cache: SEAWX_CACHE_MAX_MB (a configuration
 * option too), else the default. A value that is not a number leaves the
 * default, with a warning saying so: a dataset still opens. */
static uint64_t CacheLimit()
{
    static std::atomic<bool> bWarned{false};
    uint64_t nBytes = uint64_t(SWX_DISKCACHE_DEFAULT_MAX_MB) * 1048576;
    if (const char *pszMax = CPLGetConfigOption("SEAWX_CACHE_MAX_MB", nullptr)) {
        uint64_t n = 0;
        if (swx_diskcache_parse_mb(&n, pszMax) == 0)
            nBytes = n;
        else if (!bWarned.exchange(true)) /* once a process: QGIS opens per render */
            CPLError(CE_Warning, CPLE_IllegalArg,
                     "SEAWX_CACHE_MAX_MB: %s; the cache keeps its default of %d MB",
                     swx_error_last(), SWX_DISKCACHE_DEFAULT_MAX_MB);
    }
    return nBytes;
}

/* Decoded windows of recent reads, process-wide: QGIS reads the four bands
 * of a view one after another, and opens the dataset again for every render
 * of the same view. Least recently used first out, within a size limit. */
namespace
{
class SEAWXWindowMemory
{
  public:
    using Pixels = std::shared_ptr<const std::vector<GByte>>;
    Pixels Get(const std::string &osKey)
    {
        std::lock_guard<std::mutex> oLock(m_oMutex);
        for (auto it = m_oList.begin(); it != m_oList.end(); ++it)
            if (it->first == osKey) {
                m_oList.splice(m_oList.begin(), m_oList, it);
                return it->second;
            }
        return nullptr;
    }
    void Put(const std::string &osKey, Pixels poPixels)
    {
        std::lock_guard<std::mutex> oLock(m_oMutex);
        m_nBytes += poPixels->size();
        m_oList.emplace_front(osKey, std::move(poPixels));
        while (m_nBytes > MAX_BYTES && m_oList.size() > 1) {
            m_nBytes -= m_oList.back().second->size();
            m_oList.pop_back();
        }
    }

  private:
    static constexpr size_t MAX_BYTES = size_t(96) << 20;
    std::mutex m_oMutex{};
    std::list<std::pair<std::string, Pixels>> m_oList{};
    size_t m_nBytes = 0;
};

SEAWXWindowMemory &WindowMemory()
{
    static SEAWXWindowMemory oMemory;
    return oMemory;
}

/* Pixels of a window read at most: beyond, reads go by blocks. */
constexpr GIntBig WINDOW_MAX_PIXELS = GIntBig(1) << 26;
constexpr int WINDOW_MAX_SIDE = 16384;
/* Buffers narrower or shorter go by blocks. */
constexpr int WINDOW_MIN_SIDE = 64;
/* About the pixels of one GetMap of a window: a view of 1440 x 720 goes as
 * four strips, rendered by the service at once. */
constexpr GIntBig WINDOW_PIECE_PIXELS = 262144;

int WindowPieces(int nXSize, int nYSize, int nMaxConnections)
{
    const GIntBig n = (GIntBig(nXSize) * nYSize + WINDOW_PIECE_PIXELS - 1) / WINDOW_PIECE_PIXELS;
    return int(std::min<GIntBig>(n, std::max(1, nMaxConnections)));
}
} // namespace

GDALDataset *SEAWXRasterDataset::Open(GDALOpenInfo *poOpenInfo, SEAWXOptions &oOpts,
                                      SEAWXClientPtr poClient, SEAWXCapsPtr poCaps)
{
    swx_map_opts mo = oOpts.Map();
    std::shared_ptr<swx_diskcache> poCache;
    if (mo.use_cache) {
        CPLString osDir = SEAWXCacheFolder("tiles");
        if (!osDir.empty())
            poCache = SEAWXSharedCache(osDir.c_str(), CacheLimit());
        /* No folder for it: read without a cache, as before there was one. */
    }
    mo.cache = poCache.get();
    swx_map *psMap = nullptr;
    if (int rc = swx_map_open(&psMap, poCaps.release(), &mo); rc != 0) {
        /* The core names what is valid; GDAL users list the layers this way. */
        if (rc == SWX_ENOTFOUND && (mo.layer || mo.variable))
            CPLError(CE_Failure, CPLE_AppDefined,
                     "SEAWX: %s (list the layers with: gdalinfo SEAWX:bundle=%s)", swx_error_last(),
                     mo.bundle);
        else
            SEAWXReportError(CE_Failure, "cannot open the layer");
        return nullptr;
    }

    std::unique_ptr<SEAWXRasterDataset> poDS(new SEAWXRasterDataset(nullptr, 0));
    poDS->m_poCache = std::move(poCache);
    poDS->m_poMapOwned.reset(psMap);
    poDS->m_poClientOwned = std::move(poClient);
    poDS->m_poMutexOwned = std::make_unique<std::mutex>();
    poDS->m_psMap = psMap;
    poDS->m_psClient = poDS->m_poClientOwned.get();
    poDS->m_poMutex = poDS->m_poMutexOwned.get();
    poDS->m_nMaxConnections = mo.max_connections;
    poDS->m_osServiceURL =
        oOpts.Service().url ? oOpts.Service().url : CPLGetConfigOption("SEAWX_BASE_URL", "");
    for (auto [pszKey, posOut] :
         {std::pair{"style", &poDS->m_osGivenStyle}, std::pair{"crs", &poDS->m_osGivenCRS},
          std::pair{"url", &poDS->m_osGivenURL}})
        if (const char *pszValue = oOpts.Get(pszKey))
            *posOut = pszValue;
    poDS->nRasterXSize = swx_map_width(psMap);
    poDS->nRasterYSize = swx_map_height(psMap);
    poDS->m_oSRS.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
    poDS->m_oSRS.importFromEPSG(swx_map_epsg(psMap));
    for (int b = 1; b <= 4; b++)
        poDS->SetBand(b, new SEAWXRasterBand(poDS.get(), b));
    for (int k = 1; k < swx_map_level_count(psMap); k++)
        poDS->m_apoOverviews.emplace_back(new SEAWXRasterDataset(poDS.get(), k));

    const swx_layer *l = swx_map_layer(psMap);
    int64_t run = 0;
    char s[SWX_ISO8601_LEN];
    poDS->SetMetadataItem("BUNDLE", swx_map_bundle(psMap));
    poDS->SetMetadataItem("LAYER", swx_layer_name(l));
    if (swx_layer_product(l))
        poDS->SetMetadataItem("PRODUCT", swx_layer_product(l));
    poDS->SetMetadataItem("VARIABLE", swx_layer_variable(l));
    poDS->SetMetadataItem("UNIT", swx_layer_unit(l) ? swx_layer_unit(l) : "");
    if (swx_layer_title(l))
        poDS->SetMetadataItem("TITLE", swx_layer_title(l));
    if (swx_layer_run_time(&run, l) == 0) {
        swx_iso8601_format(s, run);
        poDS->SetMetadataItem("RUN", s);
    }
    if (swx_map_time(psMap) != INT64_MIN) {
        swx_iso8601_format(s, swx_map_time(psMap));
        poDS->SetMetadataItem("TIME", s);
    }
    if (const swx_timedim *td = swx_layer_time(l)) {
        CPLString osTimes;
        size_t n = swx_timedim_count(td);
        for (size_t i = 0; i < n && i < 100000; i++) {
            swx_iso8601_format(s, swx_timedim_get(td, i));
            if (i)
                osTimes += ",";
            osTimes += s;
        }
        poDS->SetMetadataItem("TIMES", osTimes.c_str());
        poDS->SetMetadataItem("TIME_COUNT", CPLSPrintf("%d", int(n)));
    }
    poDS->SetMetadataItem("STYLE", swx_map_style(psMap));
    CPLString osStyles;
    for (size_t i = 0; i < swx_layer_style_count(l); i++) {
        if (i)
            osStyles += ",";
        osStyles += swx_layer_style(l, i)->name;
    }
    poDS->SetMetadataItem("STYLES", osStyles.c_str());
    for (size_t i = 0; i < swx_layer_style_count(l); i++) {
        const swx_style *st = swx_layer_style(l, i);
        if (strcmp(st->name, swx_map_style(psMap)) == 0 && st->legend_url)
            poDS->SetMetadataItem("LEGEND_URL", st->legend_url); /* without the key */
    }
    poDS->SetMetadataItem("INTERLEAVE", "PIXEL", "IMAGE_STRUCTURE");
    poDS->SetDescription(poOpenInfo->pszFilename);
    /* No .aux.xml: the name is a connection string, not a file, and GDAL would
     * write "SEAWX:....aux.xml" into the working folder (QGIS saves
     * statistics there). */
    poDS->nPamFlags |= GPF_DISABLED;
    return poDS.release();
}

SEAWXRasterDataset::SEAWXRasterDataset(SEAWXRasterDataset *poBase, int nLevel)
    : m_poBase(poBase ? poBase : this), m_nLevel(nLevel)
{
    if (poBase) {
        m_psMap = poBase->m_psMap;
        m_psClient = poBase->m_psClient;
        m_poMutex = poBase->m_poMutex;
        m_nMaxConnections = poBase->m_nMaxConnections;
        swx_map_level_size(&nRasterXSize, &nRasterYSize, m_psMap, nLevel);
        for (int b = 1; b <= 4; b++)
            SetBand(b, new SEAWXRasterBand(this, b));
    }
}

SEAWXRasterDataset::~SEAWXRasterDataset()
{
    FlushCache(true);
    /* The overviews first: they borrow the map, the client and the mutex;
     * the members then go in reverse order, the map before its cache. */
    m_apoOverviews.clear();
}

CPLErr SEAWXRasterDataset::GetGeoTransform(double *gt)
{
    swx_map_geotransform(gt, m_psMap);
    if (m_nLevel) {
        gt[1] *= double(swx_map_width(m_psMap)) / nRasterXSize;
        gt[5] *= double(swx_map_height(m_psMap)) / nRasterYSize;
    }
    return CE_None;
}

const OGRSpatialReference *SEAWXRasterDataset::GetSpatialRef() const
{
    return &m_poBase->m_oSRS;
}

/* ---- the legend ---- */

const CPLString &SEAWXRasterDataset::LegendFile()
{
    if (m_bLegendTried)
        return m_osLegendFile;
    m_bLegendTried = true;
    const swx_layer *l = swx_map_layer(m_psMap);
    CPLString osDir = SEAWXCacheFolder("legends");
    if (osDir.empty()) {
        CPLError(CE_Warning, CPLE_AppDefined,
                 "SEAWX: no folder for the legend: set SEAWX_CACHE_DIR or HOME");
        return m_osLegendFile;
    }
    /* Named by what it shows: bundle, layer, style, and the service's address
     * (hashed: two services never share a file). */
    CPLString osName;
    osName.Printf("%s %s %s", swx_map_bundle(m_psMap), swx_layer_name(l), swx_map_style(m_psMap));
    for (char &ch : osName)
        if (!isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '.')
            ch = '_';
    osName += CPLSPrintf("_%08lx.png", CPLHashSetHashStr(m_osServiceURL.c_str()) & 0xffffffffUL);
    CPLString osPath = CPLFormFilename(osDir, osName, nullptr);
    VSIStatBufL sStat;
    if (VSIStatL(osPath, &sStat) == 0 && sStat.st_size > 0) {
        m_osLegendFile = osPath;
        return m_osLegendFile;
    }
    void *pPNG = nullptr;
    size_t nLen = 0;
    int rc;
    {
        std::lock_guard<std::mutex> oLock(*m_poMutex);
        rc = swx_wms_get_legend(&pPNG, &nLen, nullptr, nullptr, m_psClient, swx_map_bundle(m_psMap),
                                swx_layer_name(l), swx_map_style(m_psMap), 0, 0);
    }
    if (rc == 0) {
        VSIMkdirRecursive(osDir, 0700);
        swx_atomicfile af = SWX_ATOMICFILE_INIT;
        rc = swx_atomicfile_open(&af, osPath, 0666, 0);
        if (rc == 0 && fwrite(pPNG, 1, nLen, af.f) != nLen) {
            swx_atomicfile_abort(&af);
            rc = swx_error_set(SWX_EIO, "cannot write %s", osPath.c_str());
        } else if (rc == 0)
            rc = swx_atomicfile_commit(&af);
    }
    free(pPNG);
    if (rc != 0) {
        SEAWXReportError(CE_Warning, "cannot get the legend");
        return m_osLegendFile;
    }
    m_osLegendFile = osPath;
    return m_osLegendFile;
}

const CPLString &SEAWXRasterDataset::LayerDefinition()
{
    if (!m_osQLR.empty())
        return m_osQLR;
    swx_qlr_opts o = SWX_QLR_OPTS_INIT;
    o.bundle = swx_map_bundle(m_psMap);
    o.layer = swx_map_layer(m_psMap);
    o.style = m_osGivenStyle.empty() ? nullptr : m_osGivenStyle.c_str();
    o.crs = m_osGivenCRS.empty() ? nullptr : m_osGivenCRS.c_str();
    o.url = m_osGivenURL.empty() ? nullptr : m_osGivenURL.c_str();
    o.legend = LegendFile().empty() ? nullptr : LegendFile().c_str();
    char *pszDoc = nullptr;
    size_t nLen = 0;
    FILE *f = open_memstream(&pszDoc, &nLen);
    int rc = f ? swx_qlr_write(f, &o) : swx_error_set(SWX_ENOMEM, "out of memory");
    if (f && fclose(f) != 0 && rc == 0)
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
    if (rc == 0)
        m_osQLR.assign(pszDoc, nLen);
    else
        SEAWXReportError(CE_Failure, "cannot write the layer definition");
    free(pszDoc);
    return m_osQLR;
}

const char *SEAWXRasterDataset::GetMetadataItem(const char *pszName, const char *pszDomain)
{
    if (m_nLevel == 0 && pszName && pszDomain && EQUAL(pszDomain, "QGIS")) {
        if (!EQUAL(pszName, "QLR"))
            return nullptr;
        const CPLString &osDoc = LayerDefinition();
        return osDoc.empty() ? nullptr : osDoc.c_str();
    }
    if (m_nLevel == 0 && pszName && pszDomain && EQUAL(pszDomain, "LEGEND")) {
        if (!EQUAL(pszName, "FILE"))
            return nullptr;
        const CPLString &osFile = LegendFile();
        return osFile.empty() ? nullptr : osFile.c_str();
    }
    return GDALPamDataset::GetMetadataItem(pszName, pszDomain);
}

char **SEAWXRasterDataset::GetMetadata(const char *pszDomain)
{
    if (m_nLevel == 0 && pszDomain && EQUAL(pszDomain, "QGIS")) {
        if (m_aosQGISMD.empty() && !LayerDefinition().empty())
            m_aosQGISMD.SetNameValue("QLR", LayerDefinition());
        return m_aosQGISMD.List();
    }
    if (m_nLevel == 0 && pszDomain && EQUAL(pszDomain, "LEGEND")) {
        if (m_aosLegendMD.empty() && !LegendFile().empty())
            m_aosLegendMD.SetNameValue("FILE", LegendFile());
        return m_aosLegendMD.List();
    }
    return GDALPamDataset::GetMetadata(pszDomain);
}

char **SEAWXRasterDataset::GetMetadataDomainList()
{
    char **papszList = GDALPamDataset::GetMetadataDomainList();
    if (m_nLevel == 0) {
        papszList = CSLAddString(papszList, "LEGEND");
        papszList = CSLAddString(papszList, "QGIS");
    }
    return papszList;
}

/* ---- reading ---- */

int SEAWXRasterDataset::OnBlock(void *ud, int level, int bx, int by, const uint8_t *rgba, int w,
                                int h)
{
    auto poDS = static_cast<SEAWXRasterDataset *>(ud);
    const int bs = swx_map_block_size(poDS->m_psMap);
    for (int b = 1; b <= 4; b++) {
        GByte *pDst = nullptr;
        GDALRasterBlock *poBlock = nullptr;
        if (b == poDS->m_nWantBand && bx == poDS->m_nWantX && by == poDS->m_nWantY)
            pDst = static_cast<GByte *>(poDS->m_pWant);
        else {
            GDALRasterBand *poBand = poDS->GetRasterBand(b);
            poBlock = poBand->TryGetLockedBlockRef(bx, by);
            if (poBlock) {
                /* Already there (read meanwhile): keep it. */
                poBlock->DropLock();
                continue;
            }
            poBlock = poBand->GetLockedBlockRef(bx, by, TRUE);
            if (!poBlock)
                continue; /* no room in the cache: read again on demand */
            pDst = static_cast<GByte *>(poBlock->GetDataRef());
        }
        if (w < bs || h < bs)
            memset(pDst, 0, size_t(bs) * bs);
        for (int y = 0; y < h; y++) {
            const uint8_t *src = rgba + size_t(y) * w * 4 + (b - 1);
            GByte *dst = pDst + size_t(y) * bs;
            for (int x = 0; x < w; x++)
                dst[x] = src[size_t(x) * 4];
        }
        if (poBlock)
            poBlock->DropLock();
    }
    (void)level;
    return 0;
}

CPLErr SEAWXRasterDataset::FetchBlocks(const std::vector<int> &anBlocks, int nWantBand, int nWantX,
                                       int nWantY, void *pWant)
{
    if (anBlocks.empty())
        return CE_None;
    std::lock_guard<std::mutex> oLock(*m_poMutex);
    CPLDebug("SEAWX", "level %d: fetching %d blocks, %d at once", m_nLevel,
             int(anBlocks.size() / 2), m_nMaxConnections);
    m_nWantBand = nWantBand;
    m_nWantX = nWantX;
    m_nWantY = nWantY;
    m_pWant = pWant;
    swx_fetch_stats sStats{};
    int rc = swx_map_read_blocks(&sStats, m_psMap, m_psClient, m_nLevel, anBlocks.data(),
                                 anBlocks.size() / 2, m_nMaxConnections, nullptr, OnBlock, this);
    CPLDebug("SEAWX", "level %d: %ld GetMaps sent, %ld of them retries", m_nLevel, sStats.requests,
             sStats.retries);
    m_nWantBand = 0;
    m_pWant = nullptr;
    if (rc != 0) {
        SEAWXReportError(CE_Failure, "reading the layer failed");
        return CE_Failure;
    }
    return CE_None;
}

CPLErr SEAWXRasterDataset::Prefetch(int nXOff, int nYOff, int nXSize, int nYSize, int nBufXSize,
                                    int nBufYSize)
{
    /* Reads that shrink by 2 or more go to an overview, which prefetches for
     * itself when GDAL calls it. */
    if (nBufXSize * 2 <= nXSize && nBufYSize * 2 <= nYSize &&
        m_nLevel + 1 < swx_map_level_count(m_psMap))
        return CE_None;
    const int bs = swx_map_block_size(m_psMap);
    const int bx0 = nXOff / bs, by0 = nYOff / bs;
    const int bx1 = (nXOff + nXSize - 1) / bs, by1 = (nYOff + nYSize - 1) / bs;
    const int nBlocksY = (nRasterYSize + bs - 1) / bs;
    /* A read of whole rows from the top (how copies start) or one that
     * continues the previous read (the next swath of the same columns) is a
     * scan: it fetches rows of blocks ahead too, so that one fetch keeps twice
     * the connections busy instead of waiting a round trip for every swath. */
    const bool bScan = (nYOff == 0 && nXOff == 0 && nXSize == nRasterXSize) ||
                       (nXOff == m_nScanXOff && nXSize == m_nScanXSize && nYOff == m_nScanNextY);
    m_nScanXOff = nXOff;
    m_nScanXSize = nXSize;
    m_nScanNextY = nYOff + nYSize;
    /* Keep what one read brings in to a third of GDAL's block cache. */
    const GIntBig nPerBlock = GIntBig(bs) * bs * 4;
    const GIntBig nMaxBlocks = std::max<GIntBig>(1, GDALGetCacheMax64() / 3 / nPerBlock);
    std::vector<int> anBlocks;
    GDALRasterBand *poBand1 = GetRasterBand(1);
    auto addRow = [&](int by) {
        for (int bx = bx0; bx <= bx1 && GIntBig(anBlocks.size() / 2) < nMaxBlocks; bx++) {
            GDALRasterBlock *poBlock = poBand1->TryGetLockedBlockRef(bx, by);
            if (poBlock) {
                poBlock->DropLock();
                continue;
            }
            anBlocks.push_back(bx);
            anBlocks.push_back(by);
        }
    };
    for (int by = by0; by <= by1; by++)
        addRow(by);
    if (anBlocks.empty())
        return CE_None; /* all there: no read ahead either */
    if (bScan) {
        /* The rows of blocks of this read and as many after it as a third of
         * GDAL's block cache holds, as one window in strips: every GetMap of
         * it is under way at once instead of one round trip per few rows.
         * The scan's next reads are served from it (ScanIO). */
        const int nCols = bx1 - bx0 + 1;
        const GIntBig nRowsFit = nMaxBlocks / nCols;
        const int nRows = by1 - by0 + 1;
        if (nRowsFit >= nRows) {
            const int byEnd = int(std::min<GIntBig>(nBlocksY - 1, by0 + nRowsFit - 1));
            const GIntBig nPixels =
                GIntBig(std::min((bx1 + 1) * bs, nRasterXSize) - bx0 * bs) * (byEnd - by0 + 1) * bs;
            if (nPixels <= WINDOW_MAX_PIXELS && nRasterXSize <= WINDOW_MAX_SIDE)
                return FetchScan(bx0, by0, bx1, byEnd);
        }
        const int nAhead = (2 * m_nMaxConnections + nCols - 1) / nCols - nRows;
        for (int by = by1 + 1; by <= by1 + nAhead && by < nBlocksY; by++)
            addRow(by);
    }
    if (anBlocks.size() <= 2)
        return CE_None; /* one block: IReadBlock fetches it */
    return FetchBlocks(anBlocks, 0, -1, -1, nullptr);
}

CPLErr SEAWXRasterDataset::FetchScan(int bx0, int by0, int bx1, int by1)
{
    const int bs = swx_map_block_size(m_psMap);
    const int x0 = bx0 * bs, y0 = by0 * bs;
    const int xs = std::min((bx1 + 1) * bs, nRasterXSize) - x0;
    const int ys = std::min((by1 + 1) * bs, nRasterYSize) - y0;
    m_pabyScan.reset(); /* the previous one first: one at a time in memory */
    /* Not cleared: every pixel of it is written before it is read. */
    std::unique_ptr<GByte[]> pabyRGBA(new (std::nothrow) GByte[size_t(xs) * ys * 4]);
    if (!pabyRGBA) {
        CPLError(CE_Failure, CPLE_OutOfMemory, "SEAWX: out of memory for %d x %d pixels", xs, ys);
        return CE_Failure;
    }
    std::lock_guard<std::mutex> oLock(*m_poMutex);
    CPLDebug("SEAWX", "level %d: fetching blocks %d..%d x %d..%d as strips, %d at once", m_nLevel,
             bx0, bx1, by0, by1, m_nMaxConnections);
    swx_fetch_stats sStats{};
    int rc = swx_map_read_window(&sStats, m_psMap, m_psClient, m_nLevel, x0, y0, xs, ys, xs, ys,
                                 WindowPieces(xs, ys, m_nMaxConnections), m_nMaxConnections,
                                 nullptr, pabyRGBA.get());
    CPLDebug("SEAWX", "level %d: %ld GetMaps sent, %ld of them retries", m_nLevel, sStats.requests,
             sStats.retries);
    if (rc != 0) {
        SEAWXReportError(CE_Failure, "reading the layer failed");
        return CE_Failure;
    }
    m_pabyScan = std::move(pabyRGBA);
    m_nScanX0 = x0;
    m_nScanY0 = y0;
    m_nScanXS = xs;
    m_nScanYS = ys;
    return CE_None;
}

bool SEAWXRasterDataset::ScanCovers(int nXOff, int nYOff, int nXSize, int nYSize) const
{
    return m_pabyScan && nXOff >= m_nScanX0 && nYOff >= m_nScanY0 &&
           nXOff + nXSize <= m_nScanX0 + m_nScanXS && nYOff + nYSize <= m_nScanY0 + m_nScanYS;
}

void SEAWXRasterDataset::ScanIO(int nXOff, int nYOff, int nXSize, int nYSize, void *pData,
                                GDALDataType eBufType, int nBandCount, const int *panBandMap,
                                GSpacing nPixelSpace, GSpacing nLineSpace, GSpacing nBandSpace)
{
    const bool bRGBA = eBufType == GDT_Byte && nBandCount == 4 && nPixelSpace == 4 &&
                       nBandSpace == 1 && panBandMap[0] == 1 && panBandMap[1] == 2 &&
                       panBandMap[2] == 3 && panBandMap[3] == 4;
    for (int y = 0; y < nYSize; y++) {
        const GByte *pSrc = m_pabyScan.get() +
                            (size_t(nYOff - m_nScanY0 + y) * m_nScanXS + (nXOff - m_nScanX0)) * 4;
        GByte *pDst = static_cast<GByte *>(pData) + y * nLineSpace;
        if (bRGBA) { /* a copy's pixel-interleaved swath: the image's own layout */
            memcpy(pDst, pSrc, size_t(nXSize) * 4);
            continue;
        }
        for (int i = 0; i < nBandCount; i++)
            GDALCopyWords64(pSrc + (panBandMap[i] - 1), GDT_Byte, 4, pDst + i * nBandSpace,
                            eBufType, int(nPixelSpace), nXSize);
    }
}

bool SEAWXRasterDataset::WantsWindow(int nXOff, int nYOff, int nXSize, int nYSize, int nBufXSize,
                                     int nBufYSize)
{
    if (nXSize <= 0 || nYSize <= 0 || nBufXSize <= 0 || nBufYSize <= 0 ||
        nBufXSize > WINDOW_MAX_SIDE || nBufYSize > WINDOW_MAX_SIDE ||
        GIntBig(nBufXSize) * nBufYSize > WINDOW_MAX_PIXELS)
        return false;
    /* Thin reads (a copy's single lines) go by blocks, which read ahead: a
     * window each would be a round trip each. */
    if (nBufXSize < WINDOW_MIN_SIDE || nBufYSize < WINDOW_MIN_SIDE)
        return false;
    if (nBufXSize != nXSize || nBufYSize != nYSize)
        return true; /* resampled: the service renders it at the buffer's size */
    const int bs = swx_map_block_size(m_psMap);
    const int bx0 = nXOff / bs, by0 = nYOff / bs;
    const int bx1 = (nXOff + nXSize - 1) / bs, by1 = (nYOff + nYSize - 1) / bs;
    if (bx0 == bx1 && by0 == by1)
        return false; /* within one block: that block, kept for the next read */
    const bool bAligned = nXOff % bs == 0 && nYOff % bs == 0 &&
                          ((nXOff + nXSize) % bs == 0 || nXOff + nXSize == nRasterXSize) &&
                          ((nYOff + nYSize) % bs == 0 || nYOff + nYSize == nRasterYSize);
    if (bAligned)
        return false;
    GDALRasterBand *poBand1 = GetRasterBand(1);
    for (int by = by0; by <= by1; by++)
        for (int bx = bx0; bx <= bx1; bx++) {
            GDALRasterBlock *poBlock = poBand1->TryGetLockedBlockRef(bx, by);
            if (!poBlock)
                return true;
            poBlock->DropLock();
        }
    return false; /* all in GDAL's block cache already */
}

std::shared_ptr<const std::vector<GByte>>
SEAWXRasterDataset::ReadWindow(int nXOff, int nYOff, int nXSize, int nYSize, int nBufXSize,
                               int nBufYSize, const GDALRasterIOExtraArg *psExtraArg)
{
    /* The window as the caller sees it: GDAL's resampling readers (a VRT of
     * gdal_translate -outsize, read in swaths) give it in fractions of a
     * pixel, which keeps every swath on the grid of the whole. */
    double dfXOff = nXOff, dfYOff = nYOff, dfXSize = nXSize, dfYSize = nYSize;
    if (psExtraArg && psExtraArg->bFloatingPointWindowValidity) {
        dfXOff = psExtraArg->dfXOff;
        dfYOff = psExtraArg->dfYOff;
        dfXSize = psExtraArg->dfXSize;
        dfYSize = psExtraArg->dfYSize;
    } else {
        /* QGIS asks for the source pixels its canvas touches, the one beyond
         * its right and bottom edges included, at the canvas's size. When
         * that pixel is all that keeps the window from a whole number of
         * source pixels per buffer pixel, the window without it is the
         * canvas: served so, its pixels are the service's GetMap of the
         * canvas, which QGIS then shows unchanged; with it, they would lie a
         * hair off the canvas's grid. */
        auto canvasSize = [](int nSize, int nBuf) {
            return nSize - 1 >= 2 * nBuf && (nSize - 1) % nBuf == 0 ? nSize - 1 : nSize;
        };
        dfXSize = canvasSize(nXSize, nBufXSize);
        dfYSize = canvasSize(nYSize, nBufYSize);
    }
    /* Named by what the pixels are: the service, the map, the window and its
     * size (the key is not part of it). */
    const swx_layer *l = swx_map_layer(m_psMap);
    std::string osKey =
        CPLSPrintf("%s|%s|%s|%s|" CPL_FRMT_GIB "|%s|%dx%d|%d|%.17g,%.17g,%.17g,%.17g|%dx%d",
                   m_poBase->m_osServiceURL.c_str(), swx_map_bundle(m_psMap), swx_layer_name(l),
                   swx_map_style(m_psMap), GIntBig(swx_map_time(m_psMap)), swx_map_crs(m_psMap),
                   swx_map_width(m_psMap), swx_map_height(m_psMap), m_nLevel, dfXOff, dfYOff,
                   dfXSize, dfYSize, nBufXSize, nBufYSize);
    if (auto poPixels = WindowMemory().Get(osKey))
        return poPixels;
    std::shared_ptr<std::vector<GByte>> poPixels;
    try {
        poPixels = std::make_shared<std::vector<GByte>>(size_t(nBufXSize) * nBufYSize * 4);
    } catch (const std::bad_alloc &) {
        CPLError(CE_Failure, CPLE_OutOfMemory, "SEAWX: out of memory for %d x %d pixels", nBufXSize,
                 nBufYSize);
        return nullptr;
    }
    const int nStrips = WindowPieces(nBufXSize, nBufYSize, m_nMaxConnections);
    {
        std::lock_guard<std::mutex> oLock(*m_poMutex);
        CPLDebug("SEAWX", "level %d: window %g,%g %gx%g as %dx%d in up to %d strips", m_nLevel,
                 dfXOff, dfYOff, dfXSize, dfYSize, nBufXSize, nBufYSize, nStrips);
        swx_fetch_stats sStats{};
        int rc = swx_map_read_window(&sStats, m_psMap, m_psClient, m_nLevel, dfXOff, dfYOff,
                                     dfXSize, dfYSize, nBufXSize, nBufYSize, nStrips,
                                     m_nMaxConnections, nullptr, poPixels->data());
        CPLDebug("SEAWX", "level %d: %ld GetMaps sent, %ld of them retries", m_nLevel,
                 sStats.requests, sStats.retries);
        if (rc != 0) {
            SEAWXReportError(CE_Failure, "reading the layer failed");
            return nullptr;
        }
    }
    WindowMemory().Put(osKey, poPixels);
    return poPixels;
}

CPLErr SEAWXRasterDataset::WindowIO(int nXOff, int nYOff, int nXSize, int nYSize, void *pData,
                                    int nBufXSize, int nBufYSize, GDALDataType eBufType,
                                    int nBandCount, const int *panBandMap, GSpacing nPixelSpace,
                                    GSpacing nLineSpace, GSpacing nBandSpace,
                                    GDALRasterIOExtraArg *psExtraArg)
{
    auto poPixels = ReadWindow(nXOff, nYOff, nXSize, nYSize, nBufXSize, nBufYSize, psExtraArg);
    if (!poPixels)
        return CE_Failure;
    for (int i = 0; i < nBandCount; i++) {
        GByte *pDst = static_cast<GByte *>(pData) + i * nBandSpace;
        const GByte *pSrc = poPixels->data() + (panBandMap[i] - 1);
        for (int y = 0; y < nBufYSize; y++)
            GDALCopyWords64(pSrc + size_t(y) * nBufXSize * 4, GDT_Byte, 4, pDst + y * nLineSpace,
                            eBufType, int(nPixelSpace), nBufXSize);
    }
    if (psExtraArg && psExtraArg->pfnProgress &&
        !psExtraArg->pfnProgress(1.0, "", psExtraArg->pProgressData)) {
        CPLError(CE_Failure, CPLE_UserInterrupt, "User terminated");
        return CE_Failure;
    }
    return CE_None;
}

CPLErr SEAWXRasterDataset::IRasterIO(GDALRWFlag eRWFlag, int nXOff, int nYOff, int nXSize,
                                     int nYSize, void *pData, int nBufXSize, int nBufYSize,
                                     GDALDataType eBufType, int nBandCount, int *panBandMap,
                                     GSpacing nPixelSpace, GSpacing nLineSpace, GSpacing nBandSpace,
                                     GDALRasterIOExtraArg *psExtraArg)
{
    const bool bOneToOne = nBufXSize == nXSize && nBufYSize == nYSize;
    if (eRWFlag == GF_Read && !(bOneToOne && ScanCovers(nXOff, nYOff, nXSize, nYSize))) {
        if (WantsWindow(nXOff, nYOff, nXSize, nYSize, nBufXSize, nBufYSize))
            return WindowIO(nXOff, nYOff, nXSize, nYSize, pData, nBufXSize, nBufYSize, eBufType,
                            nBandCount, panBandMap, nPixelSpace, nLineSpace, nBandSpace,
                            psExtraArg);
        if (Prefetch(nXOff, nYOff, nXSize, nYSize, nBufXSize, nBufYSize) != CE_None)
            return CE_Failure;
    }
    if (eRWFlag == GF_Read && bOneToOne && ScanCovers(nXOff, nYOff, nXSize, nYSize)) {
        ScanIO(nXOff, nYOff, nXSize, nYSize, pData, eBufType, nBandCount, panBandMap, nPixelSpace,
               nLineSpace, nBandSpace);
        return CE_None;
    }
    return GDALPamDataset::IRasterIO(eRWFlag, nXOff, nYOff, nXSize, nYSize, pData, nBufXSize,
                                     nBufYSize, eBufType, nBandCount, panBandMap, nPixelSpace,
                                     nLineSpace, nBandSpace, psExtraArg);
}

SEAWXRasterBand::SEAWXRasterBand(SEAWXRasterDataset *poDSIn, int nBandIn)
{
    poDS = poDSIn;
    nBand = nBandIn;
    eDataType = GDT_Byte;
    nBlockXSize = nBlockYSize = swx_map_block_size(poDSIn->m_psMap);
}

CPLErr SEAWXRasterBand::IReadBlock(int nBlockXOff, int nBlockYOff, void *pImage)
{
    auto poGDS = static_cast<SEAWXRasterDataset *>(poDS);
    const int nW = std::min(nBlockXSize, nRasterXSize - nBlockXOff * nBlockXSize);
    const int nH = std::min(nBlockYSize, nRasterYSize - nBlockYOff * nBlockYSize);
    if (poGDS->ScanCovers(nBlockXOff * nBlockXSize, nBlockYOff * nBlockYSize, nW, nH)) {
        if (nW < nBlockXSize || nH < nBlockYSize)
            memset(pImage, 0, size_t(nBlockXSize) * nBlockYSize);
        poGDS->ScanIO(nBlockXOff * nBlockXSize, nBlockYOff * nBlockYSize, nW, nH, pImage, GDT_Byte,
                      1, &nBand, 1, nBlockXSize, 0);
        return CE_None;
    }
    std::vector<int> anBlocks{nBlockXOff, nBlockYOff};
    /* The coarsest level (at most 2 x 2 blocks) is read whole: what asks for
     * one of its blocks (QGIS opening a layer, a thumbnail) asks for the
     * others next, and one round trip is cheaper than several. */
    if (poGDS->m_nLevel + 1 == swx_map_level_count(poGDS->m_psMap)) {
        const int nBX = (nRasterXSize + nBlockXSize - 1) / nBlockXSize;
        const int nBY = (nRasterYSize + nBlockYSize - 1) / nBlockYSize;
        for (int by = 0; by < nBY && nBX * nBY <= 4; by++)
            for (int bx = 0; bx < nBX; bx++) {
                if (bx == nBlockXOff && by == nBlockYOff)
                    continue;
                GDALRasterBlock *poBlock = TryGetLockedBlockRef(bx, by);
                if (poBlock) {
                    poBlock->DropLock();
                    continue;
                }
                anBlocks.push_back(bx);
                anBlocks.push_back(by);
            }
    }
    return poGDS->FetchBlocks(anBlocks, nBand, nBlockXOff, nBlockYOff, pImage);
}

CPLErr SEAWXRasterBand::IRasterIO(GDALRWFlag eRWFlag, int nXOff, int nYOff, int nXSize, int nYSize,
                                  void *pData, int nBufXSize, int nBufYSize, GDALDataType eBufType,
                                  GSpacing nPixelSpace, GSpacing nLineSpace,
                                  GDALRasterIOExtraArg *psExtraArg)
{
    auto poGDS = static_cast<SEAWXRasterDataset *>(poDS);
    const bool bOneToOne = nBufXSize == nXSize && nBufYSize == nYSize;
    if (eRWFlag == GF_Read && !(bOneToOne && poGDS->ScanCovers(nXOff, nYOff, nXSize, nYSize))) {
        if (poGDS->WantsWindow(nXOff, nYOff, nXSize, nYSize, nBufXSize, nBufYSize))
            return poGDS->WindowIO(nXOff, nYOff, nXSize, nYSize, pData, nBufXSize, nBufYSize,
                                   eBufType, 1, &nBand, nPixelSpace, nLineSpace, 0, psExtraArg);
        if (poGDS->Prefetch(nXOff, nYOff, nXSize, nYSize, nBufXSize, nBufYSize) != CE_None)
            return CE_Failure;
    }
    if (eRWFlag == GF_Read && bOneToOne && poGDS->ScanCovers(nXOff, nYOff, nXSize, nYSize)) {
        poGDS->ScanIO(nXOff, nYOff, nXSize, nYSize, pData, eBufType, 1, &nBand, nPixelSpace,
                      nLineSpace, 0);
        return CE_None;
    }
    return GDALPamRasterBand::IRasterIO(eRWFlag, nXOff, nYOff, nXSize, nYSize, pData, nBufXSize,
                                        nBufYSize, eBufType, nPixelSpace, nLineSpace, psExtraArg);
}

GDALColorInterp SEAWXRasterBand::GetColorInterpretation()
{
    static const GDALColorInterp ae[] = {GCI_RedBand, GCI_GreenBand, GCI_BlueBand, GCI_AlphaBand};
    return ae[nBand - 1];
}

int SEAWXRasterBand::GetOverviewCount()
{
    auto poGDS = static_cast<SEAWXRasterDataset *>(poDS);
    return poGDS->m_nLevel == 0 ? int(poGDS->m_apoOverviews.size()) : 0;
}

GDALRasterBand *SEAWXRasterBand::GetOverview(int i)
{
    auto poGDS = static_cast<SEAWXRasterDataset *>(poDS);
    if (poGDS->m_nLevel != 0 || i < 0 || i >= int(poGDS->m_apoOverviews.size()))
        return nullptr;
    return poGDS->m_apoOverviews[i]->GetRasterBand(nBand);
}
