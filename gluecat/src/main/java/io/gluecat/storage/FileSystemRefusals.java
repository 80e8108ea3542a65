package io.gluecat.storage;

/** The messages of a location whose Hadoop file system cannot be had: none configured, or its class missing. */
final class FileSystemRefusals {
  private FileSystemRefusals() {}

  /** The refusal of a location whose scheme has no file system configured. */
  static String noFileSystem(String catalog, String table, String location, String scheme) {
    return String.format("gluecat catalog '%s': %s is at %s, but the catalog has no Hadoop file system for the "
        + "scheme '%s'. Configure one for this catalog (a hadoop.fs.%s.impl option) or in the session%s.", catalog,
        table, location, scheme, scheme, "local".equals(scheme) ? "; Trino's native local file system writes "
            + "local:/// locations, which the catalog option location.map (e.g. local:///=file:/<Trino's "
            + "local.location>/) maps to a path" : "");
  }

  /** The refusal of a location whose scheme names a FileSystem class that is not on the classpath. */
  static String unloadable(String catalog, String table, String location, String scheme, String cause,
      String hadoopVersion) {
    return String.format("gluecat catalog '%s': %s is at %s, but the Hadoop file system configured for the scheme "
        + "'%s' cannot be loaded (%s). Put its jar on the classpath%s, or configure another for this catalog (a "
        + "hadoop.fs.%s.impl option) or in the session.", catalog, table, location, scheme, cause,
        fileSystemJar(scheme, hadoopVersion), scheme);
  }

  /** Which jar usually provides a scheme's file system, for messages; empty where gluecat does not know. */
  private static String fileSystemJar(String scheme, String hadoopVersion) {
    switch (scheme == null ? "" : scheme) {
      case "s3a":
        return String.format(" (for s3a://: org.apache.hadoop:hadoop-aws:%s, the running Hadoop's release, and "
            + "the AWS SDK that release uses)", hadoopVersion);
      case "gs":
        return " (for gs://: the Google Cloud Storage connector, com.google.cloud.bigdataoss:gcs-connector)";
      case "abfs": case "abfss": case "wasb": case "wasbs":
        return String.format(" (for %s://: org.apache.hadoop:hadoop-azure:%s)", scheme, hadoopVersion);
      default:
        return "";
    }
  }
}
