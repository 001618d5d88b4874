"""The route tests' polar (route_check.py, route_reference.py): a cruising
boat's speed (kn) by true wind angle and speed, written in the TWA\\TWS
format seawx reads, and read back here as the format documents it."""

TWA = [0, 30, 45, 60, 90, 120, 150, 180]
TWS = [6, 12, 20]
SPEED = [[0, 0, 0], [1.5, 2.5, 3.0], [3.5, 5.0, 5.8], [4.3, 6.2, 7.0],
         [4.8, 7.0, 8.0], [4.5, 7.2, 8.6], [3.6, 6.1, 8.0], [2.6, 4.8, 7.2]]


def polar_file(path):
    with open(path, "w") as f:
        f.write("TWA\\TWS\t" + "\t".join(str(s) for s in TWS) + "\n")
        for a, row in zip(TWA, SPEED):
            f.write(str(a) + "\t" + "\t".join("%g" % v for v in row) + "\n")


def polar_speed(tws, twa):
    """Bilinear in the table (the format's documented reading): linear in
    angle between rows, linear in wind speed between columns (to 0 at 0 kn
    below the first)."""
    twa = abs(twa)
    for i in range(len(TWA) - 1):
        if TWA[i] <= twa <= TWA[i + 1]:
            f = (twa - TWA[i]) / (TWA[i + 1] - TWA[i])
            col = [SPEED[i][k] + f * (SPEED[i + 1][k] - SPEED[i][k]) for k in range(len(TWS))]
            break
    if tws <= TWS[0]:
        return col[0] * tws / TWS[0]
    if tws >= TWS[-1]:
        return col[-1]
    for k in range(len(TWS) - 1):
        if TWS[k] <= tws <= TWS[k + 1]:
            f = (tws - TWS[k]) / (TWS[k + 1] - TWS[k])
            return col[k] + f * (col[k + 1] - col[k])
