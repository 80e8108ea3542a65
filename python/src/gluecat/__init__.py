"""gluecat for PySpark users: the Maven coordinates of gluecat and Delta Lake for the installed PySpark.

    from pyspark.sql import SparkSession
    from gluecat import configure_spark_with_gluecat_pip

    builder = (SparkSession.builder
               .config("spark.sql.extensions",
                       "io.gluecat.extensions.GlueCatalogExtensions,io.delta.sql.DeltaSparkSessionExtension")
               .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
               .config("spark.sql.catalog.lake", "io.gluecat.GlueCatalog")
               .config("spark.sql.catalog.lake.warehouse", "s3a://my-lake/warehouse"))
    spark = configure_spark_with_gluecat_pip(builder).getOrCreate()

Like delta-spark's configure_spark_with_delta_pip, it only sets spark.jars.packages (and, when asked,
spark.jars.repositories); Spark downloads the jars when the session starts. The lines below are the rows of
the project's matrix.yaml (a test keeps them equal).
"""

__all__ = ["configure_spark_with_gluecat_pip", "packages_for", "SparkLine", "LINES", "MAVEN_VERSION"]

# The gluecat release these coordinates name (the Maven version; bin/release sets both).
MAVEN_VERSION = "0.1.0-SNAPSHOT"
__version__ = "0.1.0.dev0"


class SparkLine:
    """One supported Spark line: the gluecat artifact built for it and the Delta artifact it was tested with."""

    def __init__(self, line, gluecat_artifact, delta_artifact, delta_version):
        self.line = line
        self.gluecat_artifact = gluecat_artifact
        self.delta_artifact = delta_artifact
        self.delta_version = delta_version

    def packages(self, gluecat_version=MAVEN_VERSION, delta=True):
        found = [f"io.gluecat:{self.gluecat_artifact}:{gluecat_version}"]
        if delta:
            found.append(f"io.delta:{self.delta_artifact}:{self.delta_version}")
        return found

    def __repr__(self):
        return f"SparkLine({self.line!r}, {self.gluecat_artifact!r}, {self.delta_artifact!r}, {self.delta_version!r})"


LINES = {
    "3.5": SparkLine("3.5", "gluecat-spark-3.5_2.12", "delta-spark_2.12", "3.3.3"),
    "4.0": SparkLine("4.0", "gluecat-spark-4.0_2.13", "delta-spark_2.13", "4.0.1"),
    "4.1": SparkLine("4.1", "gluecat-spark-4.1_2.13", "delta-spark_4.1_2.13", "4.4.0"),
    "4.2": SparkLine("4.2", "gluecat-spark-4.2_2.13", "delta-spark_4.2_2.13", "4.4.0"),
}


def line_of(spark_version):
    """The supported line of a Spark version ("4.1.3" -> LINES["4.1"]); ValueError naming the supported ones."""
    parts = str(spark_version).split(".")
    key = ".".join(parts[:2])
    if len(parts) < 2 or key not in LINES:
        raise ValueError(f"gluecat {MAVEN_VERSION} has no artifact for Spark {spark_version}: it supports the "
                         f"Spark lines {', '.join(sorted(LINES))}")
    return LINES[key]


def packages_for(spark_version, gluecat_version=MAVEN_VERSION, delta=True):
    """The --packages coordinates for a Spark version: gluecat's artifact for its line, then Delta's."""
    return line_of(spark_version).packages(gluecat_version, delta)


def _merge(existing, added):
    """A comma-separated Spark list with the added entries after the existing ones, none twice."""
    found = [p.strip() for p in (existing or "").split(",") if p.strip()]
    for item in added:
        if item not in found:
            found.append(item)
    return ",".join(found)


def configure_spark_with_gluecat_pip(builder, extra_packages=None, repository=None, spark_version=None,
                                     gluecat_version=MAVEN_VERSION, delta=True):
    """Adds gluecat's and Delta's coordinates for the installed PySpark's line to builder's spark.jars.packages.

    Packages the builder already names are kept (ours are added after them, none twice), as are
    extra_packages. repository, a Maven repository URL (e.g. a mirror, or a build's local repository), is added
    to spark.jars.repositories the same way. spark_version defaults to the installed pyspark's; delta=False
    leaves Delta out. Returns the builder.
    """
    if spark_version is None:
        import pyspark  # only here: the coordinates themselves need no PySpark
        spark_version = pyspark.__version__
    options = getattr(builder, "_options", {})
    packages = packages_for(spark_version, gluecat_version, delta) + list(extra_packages or [])
    builder = builder.config("spark.jars.packages", _merge(options.get("spark.jars.packages"), packages))
    if repository:
        builder = builder.config("spark.jars.repositories",
                                 _merge(options.get("spark.jars.repositories"), [repository]))
    return builder
