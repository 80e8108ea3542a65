"""A short PySpark job, as a data engineer writes one: the gluecat catalog and Delta come from
spark-submit (--packages or --jars, --conf), the job only names the catalog's tables.

    spark-submit ... lake_job.py <catalog> <database> <expected executors> [--report] [--events-location <uri>]

It creates a Delta table and a parquet table in <catalog>.<database>, inserts rows (SQL and DataFrame),
reads them back and checks them. Each step prints one line, "STEP <name>: ok" or
"STEP <name>: failed: <error>"; without --report the first failure ends the job with exit status 1, with
--report every step runs and the job ends with "LAKE-JOB-DONE". When every step held it prints a line
starting with LAKE-JOB-OK. --events-location puts the parquet table at that location instead of under
the catalog's warehouse (the local-cluster check keeps it in a bucket of its own, so that a failure on the
Delta table's bucket cannot affect it through Hadoop's FileSystem cache).
"""
import sys
import time

from pyspark.sql import SparkSession

catalog, database, expected_executors = sys.argv[1], sys.argv[2], int(sys.argv[3])
options = sys.argv[4:]
report = "--report" in options
events_location = options[options.index("--events-location") + 1] if "--events-location" in options else None
spark = SparkSession.builder.appName("lake-job").getOrCreate()

# local-cluster runs: the executors are JVMs of their own; wait until they have registered
sc = spark.sparkContext
for _ in range(240):
    executors = sc._jsc.sc().getExecutorMemoryStatus().size() - 1  # minus the driver
    if executors >= expected_executors:
        break
    time.sleep(0.5)
assert executors == expected_executors, f"{executors} executors, expected {expected_executors}"

orders = f"{catalog}.{database}.orders"
events = f"{catalog}.{database}.events"
failures = []


def step(name, action):
    try:
        action()
        print(f"STEP {name}: ok", flush=True)
    except Exception as e:  # noqa: BLE001 - the job reports what a user would see
        print(f"STEP {name}: failed: {describe(e)}", flush=True)
        failures.append(name)
        if not report:
            raise


def describe(e):
    """The error as one line: for a JVM error its class and message, and its root cause."""
    java = getattr(e, "java_exception", None)
    if java is None:
        text = str(e).strip()
        return f"{type(e).__name__}: {text.splitlines()[0] if text else ''}"
    root = java
    while root.getCause() is not None and root.getCause() != root:
        root = root.getCause()
    first = (java.toString() or "").splitlines()[0]
    cause = (root.toString() or "").splitlines()[0]
    return first if root.equals(java) else f"{first} | root cause: {cause}"


def rows(query):
    return [tuple(r) for r in spark.sql(query).collect()]


def expect_sorted(query, expected):
    actual = sorted(rows(query))
    assert actual == expected, f"{query}: {actual} != {expected}"


def check(condition, message):
    assert condition, message


def expect(query, expected):
    actual = rows(query)
    assert actual == expected, f"{query}: {actual} != {expected}"


step("create namespace", lambda: spark.sql(f"CREATE NAMESPACE IF NOT EXISTS {catalog}.{database}"))
step("delta create", lambda: spark.sql(
    f"CREATE TABLE {orders} (id BIGINT, region STRING, amount DOUBLE) USING delta PARTITIONED BY (region)"))
step("delta insert", lambda: spark.sql(f"INSERT INTO {orders} VALUES (1, 'eu', 10.0), (2, 'us', 20.5), (3, 'eu', 7.25)"))
step("delta select", lambda: expect(
    f"SELECT region, count(*), sum(amount) FROM {orders} GROUP BY region ORDER BY region",
    [("eu", 2, 17.25), ("us", 1, 20.5)]))
location = f" LOCATION '{events_location}'" if events_location else ""
step("parquet create", lambda: spark.sql(f"CREATE TABLE {events} (id BIGINT, kind STRING) USING parquet{location}"))
step("parquet insert", lambda: spark.sql(f"INSERT INTO {events} VALUES (1, 'created'), (2, 'paid')"))
# a DataFrame write too, spread over several tasks
step("parquet dataframe insert", lambda: spark.range(3, 9, 1, 4).selectExpr("id", "'shipped' AS kind")
     .write.insertInto(events))
step("parquet select", lambda: expect(f"SELECT kind, count(*) FROM {events} GROUP BY kind ORDER BY kind",
                                      [("created", 1), ("paid", 1), ("shipped", 6)]))
step("show tables", lambda: expect_sorted(f"SHOW TABLES IN {catalog}.{database}",
                                          [(database, "events", False), (database, "orders", False)]))
# gluecat's session extension (listed first in spark.sql.extensions) runs CONVERT TO DELTA on a Glue table
legacy = f"{catalog}.{database}.legacy"
step("convert to delta", lambda: (
    spark.sql(f"CREATE TABLE {legacy} (id BIGINT, day STRING) USING parquet PARTITIONED BY (day)"),
    spark.sql(f"INSERT INTO {legacy} VALUES (1, 'd1'), (2, 'd2')"),
    spark.sql(f"CONVERT TO DELTA {legacy}"),
    check(spark.sql(f"DESCRIBE DETAIL {legacy}").select("format").collect()[0][0] == "delta", "not converted"),
    expect(f"SELECT * FROM {legacy} ORDER BY id", [(1, "d1"), (2, "d2")])))

if not failures:
    orders_location = [r for r in spark.sql(f"DESCRIBE TABLE EXTENDED {orders}").collect()
                       if r.col_name == "Location"][0].data_type
    print(f"LAKE-JOB-OK executors={executors} location={orders_location}", flush=True)
print(f"LAKE-JOB-DONE failed={','.join(failures)}", flush=True)
spark.stop()
