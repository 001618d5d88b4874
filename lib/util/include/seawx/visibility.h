/* seawx/visibility.h: what the core exports. Everything else is hidden. */
#ifndef SEAWX_VISIBILITY_H
#define SEAWX_VISIBILITY_H
#define SWX_API __attribute__((visibility("default")))
#endif
