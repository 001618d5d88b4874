# jq_convert.jq: the obvious jq route for bench/storms/run.sh: tracks as
# LineStrings (Points for one position) and every track and forecast position
# as a Point. jq has no easy geodesic arcs, so wind radii are left out: it is
# compared with `seawx storms --kinds storm,track_point,forecast_point`.
{type: "FeatureCollection", features: [
  .[] | . as $s | ($s.storm_name // "" | if . == "" then $s.atcf_id else . end) as $title |
  ([$s.observed_track[]? | [.lon, .lat]]) as $c |
  ({type: "Feature",
    properties: ($s | del(.observed_track, .forecast_track) + {kind: "storm", title: $title}),
    geometry: (if ($c | length) > 1 then {type: "LineString", coordinates: $c}
               elif ($c | length) == 1 then {type: "Point", coordinates: $c[0]} else null end)}),
  ($s.observed_track[]? | {type: "Feature",
    properties: (del(.wind_extent_radii) + {kind: "track_point", atcf_id: $s.atcf_id, title: $title}),
    geometry: {type: "Point", coordinates: [.lon, .lat]}}),
  ($s.forecast_track[]? | {type: "Feature",
    properties: (del(.wind_extent_radii) + {kind: "forecast_point", atcf_id: $s.atcf_id, title: $title}),
    geometry: {type: "Point", coordinates: [.lon, .lat]}})
]}
