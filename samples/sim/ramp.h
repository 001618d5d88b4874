/* ramp.h: colour ramps, as 1024-entry RGBA lookup tables built once from a few
 * stops each. Entry k stands for the fraction k / 1023 of a variable's range. */
#ifndef SIM_RAMP_H
#define SIM_RAMP_H

#include <stdint.h>

#define SIM_RAMP_SIZE 1024

enum sim_ramp {
    SIM_RAMP_TEMP,
    SIM_RAMP_PRESSURE,
    SIM_RAMP_RH,
    SIM_RAMP_PRECIP,
    SIM_RAMP_PTYPE,
    SIM_RAMP_WIND,
    SIM_RAMP_DIVERGING,
    SIM_RAMP_CLOUD,
    SIM_RAMP_WAVE,
    SIM_RAMP_PERIOD,
    SIM_RAMP_DIRECTION,
    SIM_RAMP_CURRENT,
    SIM_RAMP_LSM,
    SIM_RAMP_CAPE,
    SIM_RAMP_CIN,
    SIM_RAMP_PROB,
    SIM_RAMP_GEOPOT,
    SIM_RAMP_VIS,
    SIM_RAMP_EVAP,
    SIM_RAMP_SOIL,
    SIM_RAMP_SOLAR,
    SIM_RAMP_POWER,
    SIM_RAMP_COUNT
};

/* Builds the tables; call once before any thread uses them. */
void sim_ramp_init(void);
/* The table of r: SIM_RAMP_SIZE entries of 4 bytes R, G, B, A. */
const uint8_t *sim_ramp_table(enum sim_ramp r);

#endif
