"""PythonReadersIT's reader process: Daft's Glue catalog, awswrangler and MiniStack's Athena emulator read the
tables gluecat wrote, and awswrangler writes two dataset tables for gluecat to read back.

    python read_tables.py <spec.json>

The spec names the endpoint, credentials, database, bucket and tables (see PythonReadersIT). Prints one JSON
object: for each cell id, {"rows": [...]} with the rows as sorted "id,name,region" strings (or, for listings,
the names listed), or {"error": "<exception type>: <message>"} when the reader failed. One failing read never
stops the others.
"""
import json
import os
import sys
import time
import traceback


def row_text(values):
    return ",".join("null" if v is None else str(v) for v in values)


def frame_rows(frame, columns=("id", "name", "region")):
    """A pandas frame's rows as "id,name,region" (a column the reader did not give reads as <missing>)."""
    records = frame.to_dict("records")
    out = []
    for record in records:
        out.append(row_text([record.get(c, "<missing>") for c in columns]))
    return sorted(out)


def capture(results, cell, read):
    try:
        results[cell] = {"rows": read()}
    except Exception as e:  # the cell records what the reader said
        message = str(e).strip().splitlines()[0] if str(e).strip() else ""
        results[cell] = {"error": "%s: %s" % (type(e).__name__, message[:400]),
                         "trace": traceback.format_exc(limit=3)[-1500:]}


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        spec = json.load(f)
    endpoint, region = spec["endpoint"], spec["region"]
    os.environ.update({
        "AWS_ACCESS_KEY_ID": spec["accessKey"], "AWS_SECRET_ACCESS_KEY": spec["secretKey"],
        "AWS_DEFAULT_REGION": region, "AWS_REGION": region, "AWS_ENDPOINT_URL": endpoint,
    })
    db, bucket, tables = spec["database"], spec["bucket"], spec["tables"]
    results = {}
    timings = {}

    # --- Daft's Glue catalog -----------------------------------------------------------------------------
    t0 = time.time()
    import daft
    from daft.catalog.__glue import load_glue
    from daft.io import IOConfig, S3Config

    daft.set_planning_config(default_io_config=IOConfig(s3=S3Config(
        endpoint_url=endpoint, region_name=region, key_id=spec["accessKey"], access_key=spec["secretKey"],
        force_virtual_addressing=False, use_ssl=False)))
    catalog = load_glue(db, region_name=region, endpoint_url=endpoint, aws_access_key_id=spec["accessKey"],
                        aws_secret_access_key=spec["secretKey"])
    for kind, table in tables.items():
        capture(results, "daft/" + kind,
                lambda table=table: frame_rows(catalog.get_table(db + "." + table).read().to_pandas()))
    timings["daft"] = round(time.time() - t0, 1)

    # --- awswrangler -------------------------------------------------------------------------------------
    t0 = time.time()
    import awswrangler as wr

    parquet, parquet_partitioned = tables["parquet"], tables["parquet-partitioned"]
    capture(results, "awswrangler/parquet",
            lambda: frame_rows(wr.s3.read_parquet_table(table=parquet, database=db)))
    capture(results, "awswrangler/parquet-s3a",
            lambda: frame_rows(wr.s3.read_parquet_table(table=tables["parquet-s3a"], database=db)))
    capture(results, "awswrangler/parquet-partitioned",
            lambda: frame_rows(wr.s3.read_parquet_table(table=parquet_partitioned, database=db)))
    capture(results, "awswrangler/parquet-partition-filter",
            lambda: frame_rows(wr.s3.read_parquet_table(table=parquet_partitioned, database=db,
                                                        partition_filter=lambda p: p["region"] == "eu")))
    capture(results, "awswrangler/table-listing",
            lambda: sorted(wr.catalog.tables(database=db, limit=100)["Table"].tolist()))
    capture(results, "awswrangler/partition-listing",
            lambda: sorted(row_text(values) for values in
                           wr.catalog.get_parquet_partitions(database=db, table=parquet_partitioned).values()))

    # the reverse direction: awswrangler writes datasets that gluecat reads back
    import pandas as pd

    def frame(ids):
        return pd.DataFrame({"id": [i for i in ids], "name": ["event-%d" % i for i in ids],
                             "region": ["eu" if i % 2 == 0 else "us" for i in ids]})

    def write_plain():
        wr.s3.to_parquet(frame(range(0, 6)), path="s3://%s/awswrangler/%s/" % (bucket, spec["written"]),
                         dataset=True, database=db, table=spec["written"])
        return []

    def write_partitioned():
        name = spec["writtenPartitioned"]
        path = "s3://%s/awswrangler/%s/" % (bucket, name)
        wr.s3.to_parquet(frame(range(0, 4)), path=path, dataset=True, database=db, table=name,
                         partition_cols=["region"])
        # a second write adds rows to a partition and a new partition
        later = frame(range(4, 6))
        later.loc[later["id"] == 5, "region"] = "ap"
        wr.s3.to_parquet(later, path=path, dataset=True, database=db, table=name, partition_cols=["region"],
                         mode="append")
        return []

    capture(results, "awswrangler-write/dataset", write_plain)
    capture(results, "awswrangler-write/dataset-partitioned", write_partitioned)
    timings["awswrangler"] = round(time.time() - t0, 1)

    # --- MiniStack's Athena emulator (DuckDB over the Glue entries) ----------------------------------------
    t0 = time.time()
    import boto3

    athena = boto3.client("athena", endpoint_url=endpoint, region_name=region)

    def athena_rows(sql):
        started = athena.start_query_execution(
            QueryString=sql, QueryExecutionContext={"Database": db},
            ResultConfiguration={"OutputLocation": "s3://%s/athena-results/" % bucket})
        query_id = started["QueryExecutionId"]
        for _ in range(600):
            status = athena.get_query_execution(QueryExecutionId=query_id)["QueryExecution"]["Status"]
            if status["State"] in ("SUCCEEDED", "FAILED", "CANCELLED"):
                break
            time.sleep(0.1)
        if status["State"] != "SUCCEEDED":
            raise RuntimeError("%s: %s" % (status["State"], status.get("StateChangeReason", "")))
        result = athena.get_query_results(QueryExecutionId=query_id)["ResultSet"]["Rows"]
        return sorted(row_text([d.get("VarCharValue") for d in r["Data"]]) for r in result[1:])

    for kind in ("parquet", "parquet-s3a", "parquet-partitioned", "csv", "csv-partitioned", "json", "json-partitioned"):
        capture(results, "athena-emulator/" + kind,
                lambda kind=kind: athena_rows('SELECT id, name, region FROM "%s"' % tables[kind]))
    capture(results, "athena-emulator/parquet-partition-filter",
            lambda: athena_rows("SELECT id, name, region FROM \"%s\" WHERE region = 'eu'"
                                % tables["parquet-partitioned"]))
    timings["athena-emulator"] = round(time.time() - t0, 1)

    print(json.dumps({"cells": results, "seconds": timings}))


if __name__ == "__main__":
    main()
