/* wms_priv.h: what the files of lib/wms share (internal). */
#ifndef SWX_WMS_PRIV_H
#define SWX_WMS_PRIV_H

/* The bundles the interface lists as WMS layers, in its order, then NULL. */
extern const char *const swx__wms_bundles[];

#endif
