"""The README's journey through Spark Connect: a Python client with no JVM (pyspark-client on Spark 4, PySpark's
own Connect client on 3.5) talks to a Connect server in which gluecat and Delta run, configured there.

    python connect_journey.py <sc://host:port> <catalog>:<database>:<hive db.table> [...]

For each catalog the server gives gluecat (a named catalog such as "lake", or "spark_catalog" in session
mode) the journey runs in <database>, then reads <hive db.table>, a partitioned Hive-format (CSV) entry the
caller created through the Glue API. Each step prints "STEP <catalog> <name>: ok" or
"STEP <catalog> <name>: failed: <error>" and every step runs; what the caller checks is printed as
"RESULT <catalog> <name> <rows as JSON>". The last line is "CONNECT-JOURNEY-DONE failed=<steps>".
"""
import json
import sys

import logging
logging.disable(logging.CRITICAL)

from pyspark.sql import SparkSession

remote = sys.argv[1]
targets = [a.split(":", 2) for a in sys.argv[2:]]
spark = SparkSession.builder.remote(remote).getOrCreate()
failures = []


def step(name, action):
    try:
        action()
        print(f"STEP {name}: ok", flush=True)
    except Exception as e:  # noqa: BLE001 - the journey reports what a user sees
        text = str(e).strip()
        print(f"STEP {name}: failed: {type(e).__name__}: {text.splitlines()[0] if text else ''}", flush=True)
        failures.append(name)


def show(name, rows):
    print(f"RESULT {name} {json.dumps(rows)}", flush=True)


def result(name, query):
    show(name, [[v for v in r] for r in spark.sql(query).collect()])


show("client", [[type(spark).__module__]])
for catalog, database, hive_table in targets:
    ns = f"{catalog}.{database}"
    c = catalog + " "
    step(c + "create namespace", lambda: spark.sql(f"CREATE NAMESPACE IF NOT EXISTS {ns}"))
    step(c + "delta create", lambda: spark.sql(
        f"CREATE TABLE {ns}.orders (id BIGINT, region STRING, amount DOUBLE) USING delta PARTITIONED BY (region)"))
    step(c + "delta insert", lambda: spark.sql(f"INSERT INTO {ns}.orders VALUES (1, 'eu', 10.0), (2, 'us', 20.5)"))
    step(c + "delta writeTo append", lambda: spark.createDataFrame(
        [(3, "eu", 7.25)], "id BIGINT, region STRING, amount DOUBLE").writeTo(f"{ns}.orders").append())
    step(c + "delta select", lambda: result(
        c + "orders", f"SELECT region, count(*), sum(amount) FROM {ns}.orders GROUP BY region ORDER BY region"))
    step(c + "delta show partitions", lambda: result(c + "orders_partitions", f"SHOW PARTITIONS {ns}.orders"))
    step(c + "parquet saveAsTable", lambda: spark.createDataFrame(
        [(1, "click", "d1"), (2, "view", "d1"), (3, "click", "d2")], "id BIGINT, kind STRING, day STRING")
        .write.format("parquet").partitionBy("day").saveAsTable(f"{ns}.events"))
    step(c + "parquet select", lambda: result(c + "events", f"SELECT id, kind, day FROM {ns}.events ORDER BY id"))
    step(c + "parquet show partitions", lambda: result(c + "events_partitions", f"SHOW PARTITIONS {ns}.events"))
    step(c + "view create", lambda: spark.sql(
        f"CREATE VIEW {ns}.eu_orders AS SELECT id, amount FROM {ns}.orders WHERE region = 'eu'"))
    step(c + "view select", lambda: result(c + "eu_orders", f"SELECT id, amount FROM {ns}.eu_orders ORDER BY id"))
    step(c + "convert to delta", lambda: (
        spark.sql(f"CREATE TABLE {ns}.legacy (id BIGINT, name STRING) USING parquet"),
        spark.sql(f"INSERT INTO {ns}.legacy VALUES (1, 'a'), (2, 'b')"),
        spark.sql(f"CONVERT TO DELTA {ns}.legacy")))
    step(c + "converted select", lambda: result(c + "legacy", f"SELECT id, name FROM {ns}.legacy ORDER BY id"))
    step(c + "converted format", lambda: show(
        c + "legacy_format", [[spark.sql(f"DESCRIBE DETAIL {ns}.legacy").select("format").collect()[0][0]]]))
    step(c + "show tables", lambda: result(c + "tables", f"SHOW TABLES IN {ns}"))
    # a Hive-format (CSV, LazySimpleSerDe) entry another tool made, with Glue partition objects
    hive = f"{catalog}.{hive_table}"
    step(c + "hive-format select", lambda: result(c + "hive", f"SELECT * FROM {hive} ORDER BY id"))
    step(c + "hive-format partition filter", lambda: result(c + "hive_d2", f"SELECT id FROM {hive} WHERE day = 'd2'"))
    step(c + "hive-format show partitions", lambda: result(c + "hive_partitions", f"SHOW PARTITIONS {hive}"))

print(f"CONNECT-JOURNEY-DONE failed={','.join(failures)}", flush=True)
spark.stop()
