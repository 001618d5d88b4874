#!/usr/bin/env bash
# TLS verification is on by default (issue 7). Throwaway certificates made
# with openssl at test time: a self-signed one, and one signed by a throwaway
# CA that nothing trusts. The capabilities fixture is served over HTTPS on
# loopback (capture_server.py --tls). By default `seawx` and the plugin refuse
# both, with one line naming the certificate problem, exit 6, and without
# sending a request (so the key never reaches an unverified server); only the
# explicit --insecure (CLI) or SEAWX_INSECURE=YES (GDAL) turns the check off.
#
# A CA file: SEAWX_CA_BUNDLE or --ca-bundle FILE (the plugin: SEAWX_CA_BUNDLE,
# else GDAL's own CURL_CA_BUNDLE) makes the certificates in FILE the trusted
# ones instead of the system's (/etc/ssl/certs). Otherwise libcurl reads no CA
# variable (CURL_CA_BUNDLE, SSL_CERT_FILE and SSL_CERT_DIR belong to the curl
# program and to OpenSSL's default paths, which libcurl does not use when built
# with a CA bundle, as Debian's is). The last checks pin that down.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
command -v openssl >/dev/null || { echo "openssl missing: run scripts/install-deps.sh"; exit 1; }
python3 -c 'import ssl' || { echo "python3 has no ssl module"; exit 1; }
S=$SEAWX_CLI
FX=$SEAWX_FIXTURES/caps/nested.xml
export SEAWX_API_KEY=$KEY SEAWX_CACHE_DIR=$T/cache
unset SEAWX_INSECURE

# The certificates.
cd "$T" || exit 1
certs() {
  openssl req -x509 -newkey rsa:2048 -nodes -keyout self.key -out self.pem -days 2 \
    -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 &&
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 \
      -subj "/CN=seawx throwaway test CA" &&
    openssl req -newkey rsa:2048 -nodes -keyout srv.key -out srv.csr -subj /CN=127.0.0.1 &&
    printf 'subjectAltName=IP:127.0.0.1\n' >srv.ext &&
    openssl x509 -req -in srv.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out srv.pem -days 2 \
      -extfile srv.ext
}
certs >certs.log 2>&1 || { echo "openssl could not make the certificates:"; cat certs.log; exit 1; }

PIDS=
serve() { # NAME capture_server options...
  local name=$1
  shift
  python3 "$here/capture_server.py" "$T/$name.port" --log "$T/$name.log" "$@" &
  PIDS="$PIDS $!"
  for _ in $(seq 200); do [ -s "$T/$name.port" ] && break; sleep 0.025; done
  [ -s "$T/$name.port" ] || { echo "the $name server did not start"; exit 1; }
  touch "$T/$name.log"
}
serve self --tls self.pem self.key --ctype text/xml --body "$FX"
serve casig --tls srv.pem srv.key --ctype text/xml --body "$FX"
SELF=https://127.0.0.1:$(cat self.port)
CASIG=https://127.0.0.1:$(cat casig.port)
serve redir --redirect "$SELF" # plain HTTP, sends every request on to the HTTPS one
REDIR=http://127.0.0.1:$(cat redir.port)
got() { grep -c -E '^GET ' "$T/$1.log"; }

# A refusal: one line naming the certificate problem, exit 6, nothing on
# stdout, no request reached the server (the key was not sent).
refused() { # SERVER PROBLEM -- CMD...
  local server=$1 problem=$2
  shift 3
  local n
  n=$(got "$server")
  "$@" >out 2>err
  local rc=$?
  [ $rc -eq 6 ] || { echo "  exit $rc"; cat err; return 1; }
  [ ! -s out ] && [ "$(wc -l <err)" -eq 1 ] || { echo "  not one line:"; cat out err; return 1; }
  grep -q -E "^seawx: error: cannot reach https://.* safely: its TLS certificate is not trusted \(SSL certificate problem: $problem.*\); --insecure" err ||
    { echo "  $(cat err)"; return 1; }
  [ "$(got "$server")" -eq "$n" ] || { echo "  a request reached the server"; return 1; }
  no_key_in out err
}
# GDAL: one ERROR line with the same message; no request reached the server.
gdal_refused() { # SERVER PROBLEM -- CMD...
  local server=$1 problem=$2
  shift 3
  local n
  n=$(got "$server")
  "$@" >out 2>err
  local rc=$?
  [ $rc -ne 0 ] || { echo "  exit 0"; return 1; }
  [ "$(grep -c '^ERROR' err)" -eq 1 ] &&
    grep -q -E "^ERROR 1: SEAWX: cannot reach https://.* safely: .*SSL certificate problem: $problem" err ||
    { echo "  $(cat err)"; return 1; }
  [ "$(got "$server")" -eq "$n" ] || { echo "  a request reached the server"; return 1; }
  no_key_in out err
}
works() { # CMD...: exit 0 and something on stdout
  "$@" >out 2>err && [ -s out ] || { cat err; return 1; }
}

# 1. seawx refuses by default, for every command, and names the problem.
check "layers: a self-signed certificate is refused" refused self 'self-signed certificate' -- "$S" layers -b basic --base-url "$SELF"
check "layers: an unknown CA is refused" refused casig 'unable to get local issuer certificate' -- "$S" layers -b basic --base-url "$CASIG"
check "seed: refused" refused self 'self-signed' -- "$S" seed -b basic -v t2m:K --bbox 0,40,10,50 -z 2 -o s.mbtiles --base-url "$SELF"
check "seed: no file left" test ! -e s.mbtiles
check "storms: refused" refused self 'self-signed' -- "$S" storms --base-url "$SELF"
check "tides: refused" refused casig 'unable to get local issuer' -- "$S" tides hourly --lat 1 --lon 2 --start 2024-01-01 --base-url "$CASIG"
check "vessels: refused" refused self 'self-signed' -- env SEAWX_BASE_URL="$CASIG" SEAWX_VESSELS_URL="$SELF" "$S" vessels
check "a download redirected to HTTPS: refused" refused self 'self-signed' -- "$S" soil download soil-moisture.20240115.global.nc --base-url "$REDIR"
check "a download: no file or .part left" sh -c "! ls soil-moisture.* 2>/dev/null | grep -q ."
# The environment does not turn it off for the CLI: only the option does.
check "SEAWX_INSECURE=YES does not turn it off for seawx" refused self 'self-signed' -- env SEAWX_INSECURE=YES "$S" layers -b basic --base-url "$SELF"

# 2. --insecure turns it off, for that command.
check "layers --insecure works" works "$S" layers -b basic --base-url "$SELF" --insecure --json
check "and lists the fixture's layers" sh -c "grep -q '\"bundle\": \"basic\"' out"
check "layers --insecure works with an unknown CA" works "$S" layers -b basic --base-url "$CASIG" --insecure
check "the download --insecure follows the redirect to HTTPS" sh -c \
  "'$S' soil download soil-moisture.20240115.global.nc --base-url '$REDIR' --insecure -q -o dl.nc && test -s dl.nc"
check "the requests reached the servers only with --insecure" test "$(got self)" -eq 2 -a "$(got casig)" -eq 1

# 3. The plugin: refused by default, SEAWX_INSECURE=YES (configuration option
# or environment) turns it off.
check "gdalinfo: refused by default" gdal_refused self 'self-signed certificate' -- gdalinfo "SEAWX:bundle=basic,url=$SELF"
check "gdalinfo: SEAWX_INSECURE=NO refuses" gdal_refused casig 'unable to get local issuer' -- gdalinfo --config SEAWX_INSECURE NO "SEAWX:bundle=basic,url=$CASIG"
check "gdal_translate: refused, no file" sh -c "! gdal_translate 'SEAWX:bundle=basic,variable=t2m:K,url=$SELF' x.tif 2>/dev/null && test ! -e x.tif"
check "ogrinfo (point data): refused" gdal_refused casig 'unable to get local issuer' -- ogrinfo -ro "SEAWX:tides,lat=1,lon=2,start=2024-01-01,url=$CASIG"
check "files (download through the redirect): refused" gdal_refused self 'self-signed' -- gdalinfo "SEAWX:soil-moisture,file=soil-moisture.20240115.global.nc,url=$REDIR"
check "files: nothing cached" sh -c "! find '$T/cache' -type f 2>/dev/null | grep -q ."
check "gdalinfo --config SEAWX_INSECURE YES works" sh -c \
  "gdalinfo --config SEAWX_INSECURE YES 'SEAWX:bundle=basic,url=$SELF' >out 2>err && grep -q 'SUBDATASET_1_NAME=SEAWX:bundle=basic,' out"
check "SEAWX_INSECURE=YES in the environment works" sh -c \
  "SEAWX_INSECURE=YES gdalinfo 'SEAWX:bundle=basic,url=$CASIG' >out 2>err && grep -q 'SUBDATASET_1_NAME=' out"

# 4. A CA file. curl itself, given the throwaway CA, accepts the server (the
# chain is sound); seawx does with --ca-bundle or SEAWX_CA_BUNDLE, and only then.
check "curl --cacert accepts the CA-signed server" sh -c "curl -sf --cacert ca.pem '$CASIG/x' | grep -q WMS_Capabilities"
check "layers --ca-bundle ca.pem trusts the CA" works "$S" layers -b basic --base-url "$CASIG" --ca-bundle "$T/ca.pem"
check "SEAWX_CA_BUNDLE=ca.pem trusts the CA" works env SEAWX_CA_BUNDLE="$T/ca.pem" "$S" layers -b basic --base-url "$CASIG"
check "a self-signed certificate given as the bundle is trusted" works "$S" layers -b basic --base-url "$SELF" --ca-bundle "$T/self.pem"
check "the bundle replaces the system's: another CA's server is refused" refused self 'self-signed' -- "$S" layers -b basic --base-url "$SELF" --ca-bundle "$T/ca.pem"
check "a missing bundle: one line, exit 3, nothing sent" sh -c \
  "n=\$(grep -c '^GET ' casig.log); '$S' layers -b basic --base-url '$CASIG' --ca-bundle '$T/none.pem' >out 2>err; rc=\$?; [ \$rc -eq 3 ] && [ \$(wc -l <err) -eq 1 ] && grep -q 'cannot read the CA bundle .*none.pem' err && [ \$(grep -c '^GET ' casig.log) -eq \$n ]"
check "CURL_CA_BUNDLE is not read by seawx" refused casig 'unable to get local issuer' -- env CURL_CA_BUNDLE="$T/ca.pem" "$S" layers -b basic --base-url "$CASIG"
check "SSL_CERT_FILE is not read" refused casig 'unable to get local issuer' -- env SSL_CERT_FILE="$T/ca.pem" "$S" layers -b basic --base-url "$CASIG"
mkdir -p cadir && cp ca.pem cadir/ && openssl rehash cadir
check "SSL_CERT_DIR is not read (a hashed folder holding the CA)" refused casig 'unable to get local issuer' -- env SSL_CERT_DIR="$T/cadir" "$S" layers -b basic --base-url "$CASIG"
check "GDAL: --config SEAWX_CA_BUNDLE trusts the CA" sh -c \
  "gdalinfo --config SEAWX_CA_BUNDLE '$T/ca.pem' 'SEAWX:bundle=basic,url=$CASIG' >out 2>err && grep -q 'SUBDATASET_1_NAME=' out"
check "GDAL: its own CURL_CA_BUNDLE is honoured too" sh -c \
  "CURL_CA_BUNDLE='$T/ca.pem' gdalinfo 'SEAWX:bundle=basic,url=$CASIG' >out 2>err && grep -q 'SUBDATASET_1_NAME=' out"

for p in $PIDS; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
finish
