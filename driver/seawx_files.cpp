/*
 * seawx_files.cpp: the service's files as raster subdatasets.
 *
 *   SEAWX:soil-moisture                         lists the regional NetCDF files
 *   SEAWX:current-weather[,time=..][,regions=..]   lists the GRIB2 files
 *   SEAWX:forecast-files[,bundles=..][,regions=..] lists the forecast GRIB2 files
 *   SEAWX:<kind>,file=NAME[,variable=VAR]       opens one file
 *
 * Opening a file downloads it once into the cache folder
 * ($SEAWX_CACHE_DIR/files/<kind>/NAME, else the XDG cache folder), through
 * lib/ (redirect to storage without the key, temporary name, resume), and
 * hands it to GDAL's own netCDF or GRIB driver; variable= opens one NetCDF
 * variable (NETCDF:"path":VAR) directly.
 */
#include "seawx_gdal.h"

#include "cpl_conv.h"
#include "cpl_string.h"
#include "cpl_vsi.h"

#include <memory>

extern "C" {
#include "seawx/error.h"
#include "seawx/files.h"
}

namespace
{

struct FileKind {
    const char *pszKind;
    swx_file_source eSource;
};

const FileKind asKinds[] = {{"soil-moisture", SWX_FILES_SOIL},
                            {"current-weather", SWX_FILES_WEATHER},
                            {"forecast-files", SWX_FILES_FORECAST}};

const FileKind *Find(const char *pszKind)
{
    for (const auto &k : asKinds)
        if (pszKind && EQUAL(pszKind, k.pszKind))
            return &k;
    return nullptr;
}

const char *const apszFileKeys[] = {"file", "variable", "time",    "regions", "bundles",
                                    "url",  "timeout",  "retries", nullptr};

class SEAWXFileListDataset final : public GDALPamDataset
{
  public:
    SEAWXFileListDataset()
    {
        /* No .aux.xml: the name is a connection string, not a file. */
        nPamFlags |= GPF_DISABLED;
    }
};

int Progress(void *ud, int64_t done, int64_t total)
{
    auto pfn = reinterpret_cast<GDALProgressFunc>(ud);
    if (pfn && total > 0)
        return pfn(static_cast<double>(done) / static_cast<double>(total), "", nullptr) ? 0 : 1;
    return 0;
}

} // namespace

bool SEAWXIsFilesKind(const char *pszKind)
{
    return Find(pszKind) != nullptr;
}

GDALDataset *SEAWXOpenFiles(GDALOpenInfo *poOpenInfo, SEAWXOptions &oOpts)
{
    const FileKind *psKind = Find(oOpts.Kind());
    if (!SEAWXCheckKeys(psKind->pszKind, oOpts.Raw(), apszFileKeys))
        return nullptr;
    if (!(poOpenInfo->nOpenFlags & GDAL_OF_RASTER))
        return nullptr;
    const char *pszFile = oOpts.Get("file");

    if (!pszFile) {
        swx_files_query q = {};
        q.source = psKind->eSource;
        q.time = oOpts.Get("time");
        q.regions = oOpts.Get("regions");
        q.bundles = oOpts.Get("bundles");
        if (swx_files_check(&q) != 0) {
            SEAWXReportError(CE_Failure, "invalid listing options");
            return nullptr;
        }
        SEAWXClientPtr poClient = SEAWXMakeClient(oOpts);
        if (!poClient)
            return nullptr;
        swx_table *psList = nullptr;
        if (swx_files_list(&psList, poClient.get(), &q) != 0) {
            SEAWXReportError(CE_Failure, "cannot list the files");
            return nullptr;
        }
        std::unique_ptr<swx_table, SEAWXFreer<swx_table, swx_table_free>> poList(psList);
        auto poDS = std::make_unique<SEAWXFileListDataset>();
        CPLStringList aosSub;
        const long nName = swx_table_find_column(psList, "name");
        const long nFormat = swx_table_find_column(psList, "format");
        for (size_t r = 0; r < swx_table_rows(psList); r++) {
            const char *pszName = swx_table_get_string(psList, r, static_cast<size_t>(nName));
            const char *pszFormat = swx_table_get_string(psList, r, static_cast<size_t>(nFormat));
            int n = static_cast<int>(r + 1);
            aosSub.SetNameValue(CPLSPrintf("SUBDATASET_%d_NAME", n),
                                oOpts.With("file", pszName, "time", nullptr).c_str());
            aosSub.SetNameValue(
                CPLSPrintf("SUBDATASET_%d_DESC", n),
                CPLSPrintf("%s (%s file)", pszName,
                           pszFormat && EQUAL(pszFormat, "netcdf") ? "NetCDF" : "GRIB2"));
        }
        poDS->SetMetadata(aosSub.List(), "SUBDATASETS");
        poDS->SetDescription(poOpenInfo->pszFilename);
        return poDS.release();
    }

    if (swx_files_check_id(pszFile) != 0) {
        SEAWXReportError(CE_Failure, "invalid file name");
        return nullptr;
    }
    CPLString osFiles = SEAWXCacheFolder("files");
    if (osFiles.empty()) {
        CPLError(CE_Failure, CPLE_OpenFailed,
                 "SEAWX: no cache folder for downloads: set SEAWX_CACHE_DIR");
        return nullptr;
    }
    CPLString osDir = CPLFormFilename(osFiles, psKind->pszKind, nullptr);
    CPLString osPath = CPLFormFilename(osDir, pszFile, nullptr);
    VSIStatBufL sStat;
    if (VSIStatL(osPath, &sStat) != 0) {
        if (VSIMkdirRecursive(osDir, 0755) != 0 && VSIStatL(osDir, &sStat) != 0) {
            CPLError(CE_Failure, CPLE_OpenFailed, "SEAWX: cannot create the cache folder %s",
                     osDir.c_str());
            return nullptr;
        }
        SEAWXClientPtr poClient = SEAWXMakeClient(oOpts);
        if (!poClient)
            return nullptr;
        swx_download_opts o = {};
        o.progress = Progress;
        o.ud = reinterpret_cast<void *>(GDALDummyProgress);
        swx_download_result r = {};
        int rc = swx_files_download(&r, poClient.get(), psKind->eSource, pszFile, osPath, &o);
        swx_download_result_clear(&r);
        if (rc != 0) {
            SEAWXReportError(CE_Failure, "the download failed");
            return nullptr;
        }
    }
    CPLString osOpen = osPath;
    if (const char *pszVar = oOpts.Get("variable"))
        osOpen.Printf("NETCDF:\"%s\":%s", osPath.c_str(), pszVar);
    GDALDataset *poDS = GDALDataset::Open(osOpen, GDAL_OF_RASTER | GDAL_OF_VERBOSE_ERROR, nullptr,
                                          nullptr, nullptr);
    return poDS;
}
