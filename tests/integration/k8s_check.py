"""k8s_check.py: the Kubernetes manifests of deploy/kubernetes/ read as YAML
and checked against the fields the Kubernetes API requires and the rules its
validation applies to Jobs (no API server is at hand), and against what the
shards' scripts rely on.
  check DIR           every manifest; prints one line per finding
  script DIR JOB OUT  writes the shell script of JOB's first container to OUT
"""
import re, sys, yaml, glob, os

DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
problems = []


def need(cond, what):
    if not cond:
        problems.append(what)
    return cond


def docs(d):
    out = []
    for path in sorted(glob.glob(os.path.join(d, "*.yaml"))):
        for doc in yaml.safe_load_all(open(path)):
            if doc is not None:
                out.append((os.path.basename(path), doc))
    return out


def check_meta(f, doc):
    need(isinstance(doc.get("apiVersion"), str), "%s: apiVersion" % f)
    need(isinstance(doc.get("kind"), str), "%s: kind" % f)
    name = (doc.get("metadata") or {}).get("name", "")
    need(isinstance(name, str) and len(name) <= 63 and DNS_LABEL.match(name),
         "%s: metadata.name %r is not a DNS label" % (f, name))
    for k, v in ((doc.get("metadata") or {}).get("labels") or {}).items():
        need(isinstance(v, str) and len(v) <= 63, "%s: label %s" % (f, k))


def check_pod(f, spec, claims, indexed):
    need(spec.get("restartPolicy") in ("Never", "OnFailure"),
         "%s: a Job's pods restart Never or OnFailure" % f)
    vols = {v.get("name"): v for v in spec.get("volumes") or []}
    for v in vols.values():
        pvc = v.get("persistentVolumeClaim")
        if pvc:
            need(pvc.get("claimName") in claims, "%s: claim %s is not defined" % (f, pvc.get("claimName")))
    cs = spec.get("containers") or []
    need(len(cs) > 0, "%s: no containers" % f)
    for c in cs:
        need(DNS_LABEL.match(c.get("name") or ""), "%s: container name" % f)
        need(isinstance(c.get("image"), str) and c["image"], "%s: container image" % f)
        for m in c.get("volumeMounts") or []:
            need(m.get("name") in vols, "%s: mount %s has no volume" % (f, m.get("name")))
            need(str(m.get("mountPath", "")).startswith("/"), "%s: mountPath" % f)
        for e in c.get("env") or []:
            need(isinstance(e.get("name"), str), "%s: env without a name" % f)
            if "value" in e:
                need(isinstance(e["value"], str), "%s: env %s is not a string" % (f, e["name"]))
            if e.get("name") in ("SEAWX_API_KEY",):
                need("value" not in e, "%s: the API key is written in the manifest" % f)
                ref = (e.get("valueFrom") or {}).get("secretKeyRef") or {}
                need(ref.get("name") and ref.get("key"), "%s: the key comes from a Secret" % f)
        args = c.get("args") or []
        if indexed:
            need(any("JOB_COMPLETION_INDEX" in a for a in args), "%s: the shard is not read from JOB_COMPLETION_INDEX" % f)
    return cs


def env_of(c, name):
    for e in c.get("env") or []:
        if e.get("name") == name:
            return e.get("value")
    return None


def cmd_check(d):
    all_docs = docs(d)
    claims = {doc["metadata"]["name"] for _, doc in all_docs if doc.get("kind") == "PersistentVolumeClaim"}
    shards = {}
    for f, doc in all_docs:
        check_meta(f, doc)
        kind = doc.get("kind")
        spec = doc.get("spec") or {}
        if kind == "PersistentVolumeClaim":
            need(spec.get("accessModes"), "%s: accessModes" % f)
            need(((spec.get("resources") or {}).get("requests") or {}).get("storage"), "%s: storage" % f)
            continue
        if not need(kind == "Job" and doc.get("apiVersion") == "batch/v1", "%s: unexpected %s" % (f, kind)):
            continue
        pod = (spec.get("template") or {}).get("spec") or {}
        indexed = spec.get("completionMode") == "Indexed"
        cs = check_pod(f, pod, claims, indexed)
        for key in ("completions", "parallelism", "backoffLimit", "backoffLimitPerIndex", "maxFailedIndexes"):
            if key in spec:
                need(isinstance(spec[key], int) and spec[key] >= 0, "%s: %s must be a whole number" % (f, key))
        if indexed:
            need(isinstance(spec.get("completions"), int) and spec["completions"] >= 1,
                 "%s: an Indexed Job needs completions" % f)
            need("backoffLimitPerIndex" in spec, "%s: shards are retried one by one (backoffLimitPerIndex)" % f)
            shards[f] = spec.get("completions")
            need(env_of(cs[0], "SEAWX_SHARDS") == str(spec.get("completions")),
                 "%s: SEAWX_SHARDS differs from completions" % f)
        if "backoffLimitPerIndex" in spec:
            need(indexed, "%s: backoffLimitPerIndex needs completionMode Indexed" % f)
            need(pod.get("restartPolicy") == "Never", "%s: backoffLimitPerIndex needs restartPolicy Never" % f)
        if "maxFailedIndexes" in spec:
            need("backoffLimitPerIndex" in spec, "%s: maxFailedIndexes needs backoffLimitPerIndex" % f)
            need(spec["maxFailedIndexes"] <= spec.get("completions", 0), "%s: maxFailedIndexes > completions" % f)
        pfp = spec.get("podFailurePolicy")
        if pfp:
            need(pod.get("restartPolicy") == "Never", "%s: podFailurePolicy needs restartPolicy Never" % f)
            names = {c.get("name") for c in cs}
            for r in pfp.get("rules") or []:
                need(r.get("action") in ("FailJob", "FailIndex", "Ignore", "Count"), "%s: rule action" % f)
                if r.get("action") == "FailIndex":
                    need("backoffLimitPerIndex" in spec, "%s: FailIndex needs backoffLimitPerIndex" % f)
                oc = r.get("onExitCodes")
                if oc:
                    need(oc.get("operator") in ("In", "NotIn"), "%s: onExitCodes operator" % f)
                    vals = oc.get("values") or []
                    need(vals and all(isinstance(v, int) for v in vals) and len(vals) <= 255,
                         "%s: onExitCodes values" % f)
                    need(not (oc.get("operator") == "In" and 0 in vals), "%s: In with exit code 0" % f)
                    need(oc.get("containerName") in (None, *names), "%s: containerName" % f)
        if not indexed and "SEAWX_SHARDS" in [e.get("name") for e in cs[0].get("env") or []]:
            shards[f] = int(env_of(cs[0], "SEAWX_SHARDS"))
    need(len(set(shards.values())) == 1, "the Jobs disagree on the shard count: %s" % shards)
    for p in problems:
        print(p)
    if not problems:
        print("%d manifests checked, shards %s" % (len(all_docs), sorted(set(shards.values()))))
    return not problems


def cmd_script(d, job, out):
    for _, doc in docs(d):
        if doc.get("kind") == "Job" and doc["metadata"]["name"] == job:
            c = doc["spec"]["template"]["spec"]["containers"][0]
            open(out, "w").write(c["args"][0])
            return True
    return False


if __name__ == "__main__":
    fn = globals()["cmd_" + sys.argv[1]]
    sys.exit(0 if fn(*sys.argv[2:]) else 1)
