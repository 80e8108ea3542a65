"""A PySpark job started with plain `python`, as in a notebook or a script: the gluecat helper (python/ of
this repository, installed into the same venv) adds gluecat's and Delta's packages to the session's builder;
the catalog's settings come from PYSPARK_SUBMIT_ARGS, as a user's environment would give them.

    python helper_job.py <catalog> <database> <repository url>

Reads the Delta table <catalog>.<database>.orders that lake_job.py wrote and prints
"HELPER-JOB-OK packages=<spark.jars.packages>".
"""
import sys

from pyspark.sql import SparkSession

from gluecat import configure_spark_with_gluecat_pip

catalog, database, repository = sys.argv[1:4]
builder = SparkSession.builder.appName("helper-job").master("local[2]")
spark = configure_spark_with_gluecat_pip(builder, repository=repository).getOrCreate()
packages = spark.conf.get("spark.jars.packages")
query = f"SELECT region, count(*), sum(amount) FROM {catalog}.{database}.orders GROUP BY region ORDER BY region"
rows = [tuple(r) for r in spark.sql(query).collect()]
assert rows == [("eu", 2, 17.25), ("us", 1, 20.5)], f"{query}: {rows}"
print(f"HELPER-JOB-OK packages={packages}", flush=True)
spark.stop()
