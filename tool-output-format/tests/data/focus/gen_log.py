"""Writes app.log: 5,000 lines from a fictional checkout service, with one incident.

Deterministic (seeded). Routine traffic from several services, with the vocabulary an
incident shares (errors, retries, disk, latency) sprinkled through normal operation, and one
incident (a database replica filling its disk) around line 3,100. Run: python3 gen_log.py
"""
import random
from datetime import datetime, timedelta

rng = random.Random(5000)
t = datetime(2025, 3, 14, 6, 0, 0)
SERVICES = ["api-gateway", "checkout", "payments", "inventory", "search", "auth", "mailer", "scheduler"]
HOSTS = ["web-1", "web-2", "web-3", "worker-1", "worker-2", "db-primary", "db-replica-1", "db-replica-2", "cache-1"]
PATHS = ["/api/v2/cart", "/api/v2/checkout", "/api/v2/products/{}", "/api/v2/search?q={}", "/api/v2/orders/{}", "/healthz", "/api/v2/login", "/api/v2/stock/{}"]
WORDS = ["kettle", "espresso", "blender", "toaster", "mixer", "fryer", "grinder", "filter"]

def ts():
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{rng.randint(0, 999):03d}Z"

def routine():
    kind = rng.random()
    svc = rng.choice(SERVICES)
    host = rng.choice(HOSTS[:5])
    rid = f"req-{rng.randint(16**7, 16**8 - 1):08x}"
    if kind < 0.55:
        path = rng.choice(PATHS).format(rng.choice([str(rng.randint(1000, 99999)), rng.choice(WORDS)]))
        status = rng.choices([200, 201, 204, 304, 400, 401, 404, 429], [70, 5, 5, 6, 4, 3, 5, 2])[0]
        return f"{ts()} INFO  {svc} host={host} {rid} {rng.choice(['GET', 'GET', 'POST', 'PUT'])} {path} status={status} dur_ms={rng.randint(3, 240)}"
    if kind < 0.65:
        return f"{ts()} DEBUG cache host=cache-1 hit_ratio={rng.randint(88, 99)}.{rng.randint(0, 9)}% keys={rng.randint(180000, 220000)} evictions={rng.randint(0, 40)}"
    if kind < 0.72:
        return f"{ts()} INFO  scheduler host=worker-{rng.randint(1, 2)} job={rng.choice(['reindex-products', 'send-abandoned-cart-mails', 'expire-sessions', 'sync-stock-feed', 'rotate-logs'])} state={rng.choice(['started', 'finished'])} took_ms={rng.randint(40, 9000)}"
    if kind < 0.78:
        h = rng.choice(HOSTS)
        return f"{ts()} INFO  node-exporter host={h} disk_used={rng.randint(31, 68)}% load1={rng.randint(0, 300) / 100} mem_used={rng.randint(40, 80)}%"
    if kind < 0.83:
        return f"{ts()} WARN  {svc} host={host} {rid} slow downstream call to {rng.choice(SERVICES)} dur_ms={rng.randint(800, 2500)} retry=1"
    if kind < 0.86:
        return f"{ts()} ERROR {svc} host={host} {rid} upstream returned 502 from {rng.choice(['geo-ip', 'tax-rates', 'address-lookup'])}, using cached value"
    if kind < 0.90:
        return f"{ts()} INFO  payments host={host} {rid} charge captured provider={rng.choice(['stripe', 'adyen', 'paypal'])} amount_eur={rng.randint(19, 900)}.{rng.randint(0, 99):02d}"
    if kind < 0.93:
        return f"{ts()} INFO  auth host={host} login ok user=u{rng.randint(10000, 99999)} mfa={rng.choice(['totp', 'passkey', 'none'])}"
    if kind < 0.96:
        return f"{ts()} INFO  postgres host={rng.choice(['db-primary', 'db-replica-1', 'db-replica-2'])} checkpoint complete: wrote {rng.randint(200, 9000)} buffers; replication lag_ms={rng.randint(1, 40)}"
    return f"{ts()} INFO  mailer host=worker-{rng.randint(1, 2)} sent template={rng.choice(['order-confirmation', 'shipping-update', 'password-reset', 'newsletter'])} to=***@{rng.choice(['gmail.com', 'web.de', 'orange.fr', 'outlook.com'])}"

INCIDENT = [
    "WARN  node-exporter host=db-replica-2 disk_used=91% on /var/lib/postgresql (wal archive growing 2.1 GB/h)",
    "WARN  postgres host=db-replica-2 archive_command failed for WAL segment 000000010000002A000000C3: s3 upload timeout",
    "WARN  node-exporter host=db-replica-2 disk_used=97% on /var/lib/postgresql",
    "ERROR postgres host=db-replica-2 could not write to file \"pg_wal/xlogtemp.8812\": No space left on device",
    "ERROR postgres host=db-replica-2 replication stopped: startup process terminated by signal 6",
    "ERROR inventory host=web-2 req-9f1c22ab query failed on db-replica-2: connection refused (pool=inventory-read size=20)",
    "ERROR checkout host=web-1 req-9f1c2301 stock check failed: inventory returned 503 after 3 retries",
    "WARN  api-gateway host=web-1 circuit breaker OPEN for upstream=inventory (error rate 64% over 30s)",
    "ERROR checkout host=web-3 req-9f1c2377 order HL-2025-0318842 rejected: stock unknown, customer shown 'try again later'",
    "INFO  pagerduty incident INC-4471 triggered: checkout error rate above 5% (severity=SEV2) assigned to on-call marta.k",
    "INFO  ops host=worker-1 marta.k acknowledged INC-4471",
    "INFO  ops host=worker-1 marta.k removed db-replica-2 from the inventory-read pool; traffic moved to db-replica-1",
    "INFO  api-gateway host=web-1 circuit breaker HALF-OPEN for upstream=inventory",
    "INFO  api-gateway host=web-1 circuit breaker CLOSED for upstream=inventory",
    "INFO  ops host=db-replica-2 marta.k deleted 38 GB of archived WAL already copied to s3 (bucket hl-wal-archive)",
    "INFO  postgres host=db-replica-2 replication resumed, catching up lag_ms=412000",
    "INFO  postgres host=db-replica-2 replica caught up with primary, lag_ms=12",
    "INFO  ops host=worker-1 marta.k re-added db-replica-2 to the inventory-read pool",
    "INFO  pagerduty incident INC-4471 resolved after 47 minutes; 1,912 checkout attempts failed; root cause: WAL archive upload to s3 timing out, filling /var/lib/postgresql on db-replica-2",
    "INFO  ops follow-up ticket OPS-2290 opened: alert on disk_used above 85% for database hosts and on archive_command failures",
]
lines = []
incident_at = 3100
step = 0
while len(lines) < 5000:
    t += timedelta(milliseconds=rng.randint(50, 1400))
    if len(lines) >= incident_at and step < len(INCIDENT) and rng.random() < 0.12:
        lines.append(f"{ts()} {INCIDENT[step]}")
        step += 1
    else:
        lines.append(routine())
assert step == len(INCIDENT), step
text = "\n".join(lines) + "\n"
open("app.log", "w").write(text)
print(len(lines), "lines,", len(text), "chars; incident lines", [i + 1 for i, l in enumerate(lines) if any(x in l for x in ("INC-4471 triggered", "INC-4471 resolved"))])
