package io.gluecat.config;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class CatalogOptionsTest {

  private static CatalogOptions parse(String... keyValues) {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      options.put(keyValues[i], keyValues[i + 1]);
    }
    return CatalogOptions.parse("glue_prod", options);
  }

  private static void assertRejected(String expectedFragment, String... keyValues) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(keyValues));
    assertTrue(e.getMessage().contains("glue_prod"), "names the catalog: " + e.getMessage());
    assertTrue(e.getMessage().contains(expectedFragment), "expected '" + expectedFragment + "' in: " + e.getMessage());
  }

  @Test
  void defaults() {
    CatalogOptions o = parse();
    assertEquals(Optional.empty(), o.glueId());
    assertEquals(Optional.empty(), o.region());
    assertEquals(Optional.empty(), o.glueEndpoint());
    assertEquals(Optional.empty(), o.roleArn());
    assertEquals("gluecat-glue_prod", o.roleSessionName());
    assertFalse(o.skipArchive());
    assertEquals(Optional.empty(), o.warehouse());
    assertTrue(o.hadoopOptions().isEmpty());
  }

  @Test
  void everyOptionIsRead() {
    CatalogOptions o = parse("glue.id", "123456789012", "region", "eu-west-1",
        "glue.endpoint", "http://127.0.0.1:4566", "sts.endpoint", "https://sts.eu-west-1.amazonaws.com",
        "role.arn", "arn:aws:iam::123456789012:role/analytics", "role.external-id", "ext-42",
        "role.session-name", "nightly", "glue.skip-archive", "TRUE", "warehouse", "s3://lake/warehouse/",
        "hadoop.fs.s3a.endpoint", "http://127.0.0.1:4566");
    assertEquals(Optional.of("123456789012"), o.glueId());
    assertEquals(Optional.of("eu-west-1"), o.region());
    assertEquals(Optional.of(URI.create("http://127.0.0.1:4566")), o.glueEndpoint());
    assertEquals(Optional.of(URI.create("https://sts.eu-west-1.amazonaws.com")), o.stsEndpoint());
    assertEquals(Optional.of("arn:aws:iam::123456789012:role/analytics"), o.roleArn());
    assertEquals(Optional.of("ext-42"), o.roleExternalId());
    assertEquals("nightly", o.roleSessionName());
    assertTrue(o.skipArchive());
    assertEquals(Optional.of("s3://lake/warehouse"), o.warehouse());
    assertEquals(Map.of("fs.s3a.endpoint", "http://127.0.0.1:4566"), o.hadoopOptions());
  }

  @Test
  void statementCallsAreLoggedOnlyOnRequest() {
    assertFalse(parse().logStatementCalls());
    assertTrue(parse("log.statement-calls", "true").logStatementCalls());
    assertFalse(parse("Log.Statement-Calls", "false").logStatementCalls());
    assertRejected("log.statement-calls", "log.statement-calls", "info");
  }

  @Test
  void partitionsSyncIsAfterWriteByDefaultAndChecked() {
    assertTrue(parse().syncPartitionsAfterWrite());
    assertTrue(parse("partitions.sync", "After-Write").syncPartitionsAfterWrite());
    assertFalse(parse("partitions.sync", "on-demand").syncPartitionsAfterWrite());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse("partitions.sync", "always"));
    assertTrue(e.getMessage().contains("spark.sql.catalog.glue_prod.partitions.sync"), e.getMessage());
    assertTrue(e.getMessage().contains("'always' must be after-write or on-demand"), e.getMessage());
  }

  @Test
  void optionNamesAreCaseInsensitiveButHadoopKeysKeepTheirCase() {
    CatalogOptions o = parse("Glue.Id", "123456789012", "hadoop.fs.s3a.bucket.MyBucket.endpoint", "x");
    assertEquals(Optional.of("123456789012"), o.glueId());
    assertEquals(Map.of("fs.s3a.bucket.MyBucket.endpoint", "x"), o.hadoopOptions());
  }

  @Test
  void unknownOptionsAreRejectedWithoutEchoingTheirValues() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> parse("glue.secret-key", "AKIA-super-secret"));
    assertTrue(e.getMessage().contains("unknown option 'glue.secret-key'"), e.getMessage());
    assertTrue(e.getMessage().contains("glue_prod"), e.getMessage());
    assertFalse(e.getMessage().contains("AKIA-super-secret"), e.getMessage());
  }

  @Test
  void sparksDefaultDatabaseOfTheSessionCatalogIsAccepted() {
    CatalogOptions session = CatalogOptions.parse("spark_catalog", Map.of("defaultDatabase", "sales"));
    assertEquals("sales", session.defaultDatabase());
    assertEquals("default", CatalogOptions.parse("spark_catalog", Map.of()).defaultDatabase());
    // a named catalog gets no such setting from Spark: there it is a typo like any other
    assertRejected("unknown option 'defaultDatabase'", "defaultDatabase", "sales");
  }

  @Test
  void malformedValuesNameTheOption() {
    assertRejected("glue.id", "glue.id", "12345");
    assertRejected("region", "region", "Mars");
    assertRejected("glue.endpoint", "glue.endpoint", "localhost:4566");
    assertRejected("sts.endpoint", "sts.endpoint", "ftp://host");
    assertRejected("role.arn", "role.arn", "arn:aws:iam::123:user/bob");
    assertRejected("glue.skip-archive", "glue.skip-archive", "yes");
    assertRejected("warehouse", "warehouse", "relative/path");
    assertRejected("glue.id", "glue.id", "  ");
    assertRejected("hadoop.", "hadoop.", "x");
    assertRejected("role.session-name", "role.arn", "arn:aws:iam::123456789012:role/r", "role.session-name", "a b");
  }

  @Test
  void roleDetailsWithoutARoleAreRejected() {
    assertRejected("role.external-id", "role.external-id", "ext-42");
    assertRejected("role.session-name", "role.session-name", "nightly");
  }

  @Test
  void identityNamesCatalogAccountAndRole() {
    assertEquals("catalog 'glue_prod', glue.id 123456789012, role arn:aws:iam::123456789012:role/r",
        parse("glue.id", "123456789012", "role.arn", "arn:aws:iam::123456789012:role/r").describeIdentity());
    assertEquals("catalog 'glue_prod', glue.id <caller's account>", parse().describeIdentity());
  }

  @Test
  void locationMapAndExtraProviders() {
    CatalogOptions o = parse("location.map", "local:///=file:/data/trino/", "providers.extra", "JDBC, kafka");
    assertEquals("file:/data/trino/db/t", o.locationMap().toHadoop("local:///db/t"));
    assertEquals(java.util.Set.of("jdbc", "kafka"), o.extraProviders());
    assertTrue(parse().locationMap().isEmpty());
    assertTrue(parse().extraProviders().isEmpty());
    assertRejected("option location.map", "location.map", "local:///");
    assertRejected("option providers.extra", "providers.extra", "jdbc;drop");
  }

  @Test
  void metadataCacheAcrossStatementsIsOffUnlessATtlIsGiven() {
    assertEquals(java.time.Duration.ZERO, parse().cacheTtl());
    assertEquals(java.time.Duration.ZERO, parse("cache.ttl", "0").cacheTtl());
    assertEquals(java.time.Duration.ofMillis(500), parse("cache.ttl", "500ms").cacheTtl());
    assertEquals(java.time.Duration.ofSeconds(30), parse("cache.ttl", "30s").cacheTtl());
    CatalogOptions o = parse("cache.ttl", "5m", "cache.max-entries", "2000");
    assertEquals(java.time.Duration.ofMinutes(5), o.cacheTtl());
    assertEquals(2000, o.cacheMaxEntries());
    assertEquals(10_000, parse("cache.ttl", "1h").cacheMaxEntries());
    assertRejected("cache.ttl", "cache.ttl", "30");
    assertRejected("cache.ttl", "cache.ttl", "-1s");
    assertRejected("cache.ttl", "cache.ttl", "2d");
    assertRejected("cache.ttl", "cache.ttl", "25h");
    assertRejected("cache.max-entries", "cache.ttl", "1m", "cache.max-entries", "0");
    assertRejected("is set but cache.ttl is not", "cache.max-entries", "10");
  }

  @Test
  void prefetchThreadsDefaultToSixteenAndAreBounded() {
    assertEquals(16, parse().prefetchThreads());
    assertEquals(0, parse("planning.prefetch-threads", "0").prefetchThreads());
    assertEquals(32, parse("planning.prefetch-threads", "32").prefetchThreads());
    assertRejected("planning.prefetch-threads", "planning.prefetch-threads", "-1");
    assertRejected("planning.prefetch-threads", "planning.prefetch-threads", "65");
    assertRejected("planning.prefetch-threads", "planning.prefetch-threads", "many");
  }
}
