"""Tests of bin/check-bundle: a small bundle laid out as bin/release stages one passes; each fault Maven
Central refuses makes it fail, naming the file and the problem. Needs gpg (a throwaway key is generated in a
temporary GNUPGHOME). Run: python3 -m unittest discover -s bin/tests
"""
import hashlib
import os
import shutil
import subprocess
import tempfile
import unittest
import zipfile
from importlib.machinery import SourceFileLoader
from importlib.util import module_from_spec, spec_from_loader

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_loader = SourceFileLoader("check_bundle", os.path.join(ROOT, "bin", "check-bundle"))
check_bundle = module_from_spec(spec_from_loader("check_bundle", _loader))
_loader.exec_module(check_bundle)

with open(os.path.join(ROOT, "LICENSE"), "rb") as _f:
    LICENSE = _f.read()
PARENT = """<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
  <groupId>io.gluecat</groupId><artifactId>gluecat-parent</artifactId><version>{version}</version>
  <packaging>pom</packaging><name>gluecat</name><description>d</description><url>https://example.org</url>
  <licenses><license><name>Apache-2.0</name></license></licenses>
  <developers><developer><name>someone</name></developer></developers>
  <scm><connection>scm:git:https://example.org/g.git</connection><url>https://example.org</url></scm>
  <properties><spark.version>4.1.3</spark.version></properties>
</project>"""
PLAIN = """<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
  <parent><groupId>io.gluecat</groupId><artifactId>gluecat-parent</artifactId><version>{version}</version></parent>
  <artifactId>gluecat-spark-4.1_2.13</artifactId><name>gluecat for Spark ${{spark.version}}</name>
  <dependencies><dependency><groupId>org.apache.spark</groupId><artifactId>spark-sql_2.13</artifactId>
    <version>{dep_version}</version><scope>provided</scope></dependency></dependencies>
</project>"""
RUNTIME = """<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
  <parent><groupId>io.gluecat</groupId><artifactId>gluecat-parent</artifactId><version>{version}</version></parent>
  <artifactId>gluecat-spark-runtime-4.1_2.13</artifactId>
  <dependencies>{deps}<dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId>
    <version>5.14.1</version><scope>test</scope></dependency></dependencies>
</project>"""


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


RUNTIME_JAR = {"META-INF/LICENSE": LICENSE, "META-INF/LICENSE.txt": LICENSE,
               "META-INF/NOTICE": b"gluecat\n\nAWS SDK for Java 2.0\nCopyright Amazon.com\n"}
PLAIN_POM = "io/gluecat/gluecat-spark-4.1_2.13/0.1.0/gluecat-spark-4.1_2.13-0.1.0.pom"
RUNTIME_BASE = "io/gluecat/gluecat-spark-runtime-4.1_2.13/0.1.0/gluecat-spark-runtime-4.1_2.13-0.1.0"


class CheckBundleTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.gnupg = tempfile.mkdtemp(prefix="gluecat-gpg-")
        os.chmod(cls.gnupg, 0o700)
        cls.env_before = os.environ.get("GNUPGHOME")
        os.environ["GNUPGHOME"] = cls.gnupg
        subprocess.run(["gpg", "--batch", "--passphrase", "", "--quick-gen-key", "test <test@gluecat.invalid>",
                        "ed25519", "sign", "never"], check=True, capture_output=True)

    @classmethod
    def tearDownClass(cls):
        subprocess.run(["gpgconf", "--kill", "gpg-agent"], capture_output=True)  # the agent of this keyring
        if cls.env_before is None:
            os.environ.pop("GNUPGHOME", None)
        else:
            os.environ["GNUPGHOME"] = cls.env_before
        shutil.rmtree(cls.gnupg, ignore_errors=True)
        if getattr(cls, "_template", None):
            shutil.rmtree(cls._template, ignore_errors=True)

    def setUp(self):
        self.staging = tempfile.mkdtemp(prefix="gluecat-staging-")
        self.addCleanup(shutil.rmtree, self.staging, True)

    def stage(self, version="0.1.0"):
        """A bundle: the parent pom, a plain artifact and a runtime artifact, each file signed and checksummed.
        The release one is signed once per class and copied (gpg is slow on a busy machine)."""
        if version != "0.1.0":
            self._write_bundle(self.staging, version)
            return
        if not getattr(type(self), "_template", None):
            type(self)._template = tempfile.mkdtemp(prefix="gluecat-template-")
            self._write_bundle(type(self)._template, version)
        shutil.rmtree(self.staging)
        shutil.copytree(type(self)._template, self.staging)

    def replace(self, rel, text=None, jar=None):
        """Replaces one file of the staged bundle (a pom's text or a jar's entries), signed and checksummed anew."""
        if jar is not None:
            self.put_jar(self.staging, rel, jar)
        else:
            self.put(self.staging, rel, text)
        self._sign(os.path.join(self.staging, rel))

    def _write_bundle(self, root, version):
        self.put(root, f"io/gluecat/gluecat-parent/{version}/gluecat-parent-{version}.pom", PARENT.format(version=version))
        plain = f"io/gluecat/gluecat-spark-4.1_2.13/{version}/gluecat-spark-4.1_2.13-{version}"
        self.put(root, plain + ".pom", PLAIN.format(version=version, dep_version="4.1.3"))
        for suffix in [".jar", "-sources.jar", "-javadoc.jar"]:
            self.put_jar(root, plain + suffix, {"META-INF/LICENSE": LICENSE})
        runtime = f"io/gluecat/gluecat-spark-runtime-4.1_2.13/{version}/gluecat-spark-runtime-4.1_2.13-{version}"
        self.put(root, runtime + ".pom", RUNTIME.format(version=version, deps=""))
        self.put_jar(root, runtime + ".jar", RUNTIME_JAR)
        for suffix in ["-sources.jar", "-javadoc.jar"]:
            self.put_jar(root, runtime + suffix, {"META-INF/LICENSE": LICENSE})
        for dirpath, _, names in os.walk(root):
            for name in names:
                if name.endswith((".pom", ".jar")):
                    self._sign(os.path.join(dirpath, name))

    @staticmethod
    def _sign(path):
        data = check_bundle._read(path)
        write(path + ".md5", hashlib.md5(data).hexdigest())
        write(path + ".sha1", hashlib.sha1(data).hexdigest())
        subprocess.run(["gpg", "--batch", "--yes", "--armor", "--detach-sign", "--output", path + ".asc", path],
                       check=True, capture_output=True)

    @staticmethod
    def put(root, rel, text):
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write(path, text)

    @staticmethod
    def put_jar(root, rel, entries):
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with zipfile.ZipFile(path, "w") as z:
            for name, data in entries.items():
                z.writestr(name, data)

    def problems(self):
        # checked once per test, after the test changed the bundle (gpg verifies every file)
        if getattr(self, "_problems", None) is None:
            self._problems = check_bundle.problems_of(self.staging)
        return self._problems

    def assertProblem(self, fragment, file_fragment):
        found = [p for p in self.problems() if fragment in p and file_fragment in p]
        self.assertTrue(found, f"no problem with {fragment!r} on {file_fragment!r} in {self.problems()}")

    def test_a_complete_signed_bundle_passes(self):
        self.stage()
        self.assertEqual([], self.problems())

    def test_an_unsigned_file_fails(self):
        self.stage()
        os.remove(os.path.join(self.staging, "io/gluecat/gluecat-spark-4.1_2.13/0.1.0/gluecat-spark-4.1_2.13-0.1.0.jar.asc"))
        self.assertEqual(["io/gluecat/gluecat-spark-4.1_2.13/0.1.0/gluecat-spark-4.1_2.13-0.1.0.jar: not signed (no .asc)"],
                         self.problems())

    def test_a_file_changed_after_signing_fails_its_signature_and_checksums(self):
        self.stage()
        pom = os.path.join(self.staging, "io/gluecat/gluecat-parent/0.1.0/gluecat-parent-0.1.0.pom")
        write(pom, check_bundle._read(pom).decode() + "\n")
        self.assertProblem("signature does not verify", "gluecat-parent-0.1.0.pom")
        self.assertProblem(".sha1 checksum does not match", "gluecat-parent-0.1.0.pom")
        self.assertProblem(".md5 checksum does not match", "gluecat-parent-0.1.0.pom")

    def test_a_snapshot_pom_fails(self):
        self.stage(version="0.1.0-SNAPSHOT")
        self.assertProblem("the version is '0.1.0-SNAPSHOT': a release has no SNAPSHOT", "io.gluecat:gluecat-parent")
        self.assertProblem("the parent version is '0.1.0-SNAPSHOT'", "io.gluecat:gluecat-spark-4.1_2.13")

    def test_a_snapshot_dependency_fails(self):
        self.stage()
        self.replace(PLAIN_POM, PLAIN.format(version="0.1.0", dep_version="4.2.0-SNAPSHOT"))
        self.assertProblem("spark-sql_2.13 is a SNAPSHOT", "gluecat-spark-4.1_2.13:0.1.0")

    def test_an_unresolved_property_fails(self):
        self.stage()
        self.replace(PLAIN_POM, PLAIN.format(version="0.1.0", dep_version="${spark42.version}"))
        self.assertProblem("${spark42.version} resolves to no property", "gluecat-spark-4.1_2.13:0.1.0")

    def test_a_missing_required_element_fails(self):
        self.stage()
        pom = os.path.join(self.staging, "io/gluecat/gluecat-parent/0.1.0/gluecat-parent-0.1.0.pom")
        text = check_bundle._read(pom).decode().replace("<scm><connection>scm:git:https://example.org/g.git</connection>", "<scm>")
        write(pom, text)
        self.assertProblem("no <scm><connection>", "io.gluecat:gluecat-spark-runtime-4.1_2.13")

    def test_a_missing_javadoc_jar_fails(self):
        self.stage()
        base = os.path.join(self.staging, "io/gluecat/gluecat-spark-4.1_2.13/0.1.0/gluecat-spark-4.1_2.13-0.1.0-javadoc.jar")
        for ext in ["", ".asc", ".md5", ".sha1"]:
            os.remove(base + ext)
        self.assertProblem("gluecat-spark-4.1_2.13-0.1.0-javadoc.jar is missing", "io.gluecat:gluecat-spark-4.1_2.13")

    def test_a_jar_without_licence_fails(self):
        self.stage()
        self.replace(PLAIN_POM.replace(".pom", "-sources.jar"), jar={"a.txt": b"a"})
        self.assertProblem("holds no META-INF/LICENSE", "gluecat-spark-4.1_2.13-0.1.0-sources.jar")

    def test_a_runtime_jar_without_the_sdk_notice_fails(self):
        self.stage()
        self.replace(RUNTIME_BASE + ".jar", jar={**RUNTIME_JAR, "META-INF/NOTICE": b"gluecat\n"})
        self.assertProblem("lacks the AWS SDK's notice", "gluecat-spark-runtime-4.1_2.13-0.1.0.jar")

    def test_a_runtime_pom_with_a_dependency_fails(self):
        self.stage()
        self.replace(RUNTIME_BASE + ".pom", RUNTIME.format(version="0.1.0", deps=(
            "<dependency><groupId>software.amazon.awssdk</groupId><artifactId>glue</artifactId>"
            "<version>2.57.8</version></dependency>")))
        self.assertProblem("declares software.amazon.awssdk:glue (compile)", "gluecat-spark-runtime-4.1_2.13:0.1.0")

    def test_repository_metadata_is_a_stray_file(self):
        self.stage()
        self.put(self.staging, "io/gluecat/gluecat-parent/maven-metadata.xml", "<metadata/>")
        self.assertProblem("a stray file", "maven-metadata.xml")


if __name__ == "__main__":
    unittest.main()
