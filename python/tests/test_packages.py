"""Tests of the gluecat helper (no Spark needed: a stand-in builder records what the helper sets).

Run: python3 -m unittest discover -s python/tests (with python/src on PYTHONPATH), or pytest in python/.
"""
import os
import re
import subprocess
import sys
import types
import unittest

import gluecat
from gluecat import configure_spark_with_gluecat_pip, packages_for

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Builder:
    """What the helper uses of pyspark.sql.SparkSession.Builder: config() and the options set so far."""

    def __init__(self, **options):
        self._options = dict(options)

    def config(self, key, value):
        self._options[key] = value
        return self


class PackagesTest(unittest.TestCase):
    def test_each_line_gets_its_gluecat_artifact_and_delta(self):
        v = gluecat.MAVEN_VERSION
        self.assertEqual([f"io.gluecat:gluecat-spark-3.5_2.12:{v}", "io.delta:delta-spark_2.12:3.3.3"],
                         packages_for("3.5.9"))
        self.assertEqual([f"io.gluecat:gluecat-spark-4.0_2.13:{v}", "io.delta:delta-spark_2.13:4.0.1"],
                         packages_for("4.0.2"))
        self.assertEqual([f"io.gluecat:gluecat-spark-4.1_2.13:{v}", "io.delta:delta-spark_4.1_2.13:4.4.0"],
                         packages_for("4.1.3"))
        self.assertEqual([f"io.gluecat:gluecat-spark-4.2_2.13:{v}", "io.delta:delta-spark_4.2_2.13:4.4.0"],
                         packages_for("4.2.0"))

    def test_a_version_and_delta_can_be_chosen(self):
        self.assertEqual(["io.gluecat:gluecat-spark-4.1_2.13:9.9.9"], packages_for("4.1.4", "9.9.9", delta=False))

    def test_an_unsupported_spark_line_is_refused_naming_the_supported_ones(self):
        with self.assertRaises(ValueError) as e:
            packages_for("3.4.1")
        self.assertIn("no artifact for Spark 3.4.1", str(e.exception))
        self.assertIn("3.5, 4.0, 4.1, 4.2", str(e.exception))

    def test_the_builder_gets_the_packages_after_those_it_names(self):
        builder = Builder(**{"spark.jars.packages": "org.example:lib:1.0, io.delta:delta-spark_4.1_2.13:4.4.0"})
        self.assertIs(builder, configure_spark_with_gluecat_pip(builder, extra_packages=["org.example:more:2"],
                                                                spark_version="4.1.3"))
        self.assertEqual("org.example:lib:1.0,io.delta:delta-spark_4.1_2.13:4.4.0,"
                         f"io.gluecat:gluecat-spark-4.1_2.13:{gluecat.MAVEN_VERSION},org.example:more:2",
                         builder._options["spark.jars.packages"])
        self.assertNotIn("spark.jars.repositories", builder._options)

    def test_a_repository_is_added_to_those_the_builder_names(self):
        builder = Builder(**{"spark.jars.repositories": "https://mirror.example/maven"})
        configure_spark_with_gluecat_pip(builder, repository="file:///build/local-repo", spark_version="3.5.9")
        self.assertEqual("https://mirror.example/maven,file:///build/local-repo",
                         builder._options["spark.jars.repositories"])

    def test_the_installed_pyspark_decides_the_line(self):
        sys.modules["pyspark"] = types.SimpleNamespace(__version__="4.2.0")
        try:
            builder = configure_spark_with_gluecat_pip(Builder(), delta=False)
        finally:
            del sys.modules["pyspark"]
        self.assertEqual(f"io.gluecat:gluecat-spark-4.2_2.13:{gluecat.MAVEN_VERSION}", builder._options["spark.jars.packages"])


class MatrixTest(unittest.TestCase):
    """The helper's lines are the rows of matrix.yaml, with the Delta artifacts the runtime checks use."""

    def test_the_lines_are_the_matrix_rows(self):
        out = subprocess.run([sys.executable, os.path.join(REPO, "bin", "matrix"), "spark", "artifact", "delta"],
                             capture_output=True, text=True, check=True).stdout
        rows = {}
        for line in out.strip().splitlines():
            spark, artifact, delta = line.split("\t")
            rows[".".join(spark.split(".")[:2])] = (artifact, delta)
        self.assertEqual(rows, {k: (v.gluecat_artifact, v.delta_version) for k, v in gluecat.LINES.items()})

    def test_the_delta_artifacts_are_the_runtime_checks(self):
        for key, line in gluecat.LINES.items():
            pom = os.path.join(REPO, "runtime", "spark" + key.replace(".", ""), "pom.xml")
            with open(pom) as f:
                delta = re.search(r"<row.delta.artifact>([^<]+)</row.delta.artifact>", f.read()).group(1)
            self.assertEqual(delta, line.delta_artifact, pom)

    def test_the_version_is_the_projects(self):
        with open(os.path.join(REPO, "pom.xml")) as f:
            version = re.search(r"<artifactId>gluecat-parent</artifactId>\s*<version>([^<]+)</version>", f.read()).group(1)
        self.assertEqual(version, gluecat.MAVEN_VERSION)
        self.assertEqual(version.replace("-SNAPSHOT", ".dev0"), gluecat.__version__)


if __name__ == "__main__":
    unittest.main()
