package io.gluecat.glue;

import io.gluecat.GlueCatalogException;
import io.gluecat.config.CatalogOptions;
import io.gluecat.testkit.Fault;
import io.gluecat.testkit.GlueCallRecorder;
import io.gluecat.testkit.GlueFaults;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

/**
 * glue.max-attempts: how many attempts the AWS SDK's retry strategy makes per Glue call. The faults fire
 * before the request is sent (testkit's GlueFaults), so no server is needed: the endpoint is a closed
 * port that is never reached.
 */
class GlueRetriesTest {

  @BeforeAll
  static void credentials() {
    // the default chain must resolve for a request to be signed and reach the interceptor
    if (System.getProperty("aws.accessKeyId") == null) {
      System.setProperty("aws.accessKeyId", "gluecat-test-key");
      System.setProperty("aws.secretAccessKey", "gluecat-test-secret");
    }
  }

  @AfterEach
  void reset() {
    GlueCallRecorder.reset();
  }

  private static GlueGateway gateway(String... keyValues) {
    Map<String, String> options = new HashMap<>(Map.of("region", "us-east-1", "glue.endpoint", "http://127.0.0.1:9"));
    for (int i = 0; i < keyValues.length; i += 2) {
      options.put(keyValues[i], keyValues[i + 1]);
    }
    return new GlueGateway(CatalogOptions.parse("glue_retries", options));
  }

  /** Attempts the SDK made for one GetDatabase that always fails with a retryable 5xx. */
  private static int attempts(GlueGateway glue) {
    try (Fault.Handle fault = GlueFaults.inject(Fault.glue("GetDatabase").internalError().always().build())) {
      GlueCatalogException e = assertThrows(GlueCatalogException.class, () -> glue.getDatabase("sales"));
      assertTrue(e.getMessage().contains("GetDatabase") && e.getMessage().contains("InternalServiceException"),
          e.getMessage());
      return fault.fired();
    }
  }

  @Test
  void maxAttemptsBoundsTheSdksRetries() {
    try (GlueGateway one = gateway("glue.max-attempts", "1"); GlueGateway three = gateway("glue.max-attempts", "3");
        GlueGateway sdkDefault = gateway()) {
      assertEquals(1, attempts(one));
      assertEquals(3, attempts(three));
      assertTrue(attempts(sdkDefault) > 1, "without the option the SDK's own default retries");
    }
  }

  @Test
  void aFaultThatClearsWithinTheAttemptsIsNotNoticed() throws Exception {
    try (GlueGateway glue = gateway("glue.max-attempts", "3");
        Fault.Handle throttled = GlueFaults.inject(Fault.glue("GetDatabase").throttling().times(2).build());
        Fault.Handle thenDenied = GlueFaults.inject(Fault.glue("GetDatabase").accessDenied().build())) {
      // two throttled attempts are retried; the third attempt's error is the one the caller sees (a later
      // armed fault only sees the attempts the earlier one let through)
      GlueCatalogException e = assertThrows(GlueCatalogException.class, () -> glue.getDatabase("sales"));
      assertTrue(e.getMessage().contains("AccessDeniedException"), e.getMessage());
      assertEquals(2, throttled.fired());
      assertEquals(1, thenDenied.fired());
    }
  }

  @Test
  void throttlingThatOutlastsTheAttemptsNamesThrottlingAndTheOptionsToRaise() {
    try (GlueGateway glue = gateway("glue.max-attempts", "2");
        Fault.Handle throttled = GlueFaults.inject(Fault.glue("GetDatabase").rateExceeded().always().build())) {
      GlueCatalogException e = assertThrows(GlueCatalogException.class, () -> glue.getDatabase("sales"));
      assertEquals(2, throttled.fired());
      for (String part : new String[] {"Rate exceeded", "ThrottlingException", "Glue throttled", "all 2 attempts",
          "spark.sql.catalog.glue_retries.glue.max-attempts (now 2", "spark.sql.catalog.glue_retries.glue.retry-mode=adaptive"}) {
        assertTrue(e.getMessage().contains(part), part + " in " + e.getMessage());
      }
    }
  }

  @Test
  void retryModeSetsTheSdksModeAndKeepsTheAttempts() {
    for (String mode : CatalogOptions.RETRY_MODES) {
      try (GlueGateway withAttempts = gateway("glue.retry-mode", mode, "glue.max-attempts", "2");
          GlueGateway modeOnly = gateway("glue.retry-mode", mode.toUpperCase(java.util.Locale.ROOT))) {
        assertEquals(2, attempts(withAttempts), mode);
        // the client runs the SDK's strategy of that mode
        String strategy = withAttempts.client().serviceClientConfiguration().overrideConfiguration().retryStrategy()
            .map(r -> r.getClass().getSimpleName()).orElse("none");
        assertTrue(strategy.toLowerCase(java.util.Locale.ROOT).contains(mode), mode + ": " + strategy);
        // each mode's own default: 3 attempts in standard and adaptive, 4 in legacy
        assertEquals(mode.equals("legacy") ? 4 : 3, attempts(modeOnly), mode);
      }
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CatalogOptions.parse("glue_retries", Map.of("glue.retry-mode", "fast")));
    assertTrue(e.getMessage().contains("glue_retries") && e.getMessage().contains("glue.retry-mode")
        && e.getMessage().contains("standard, adaptive, legacy"), e.getMessage());
  }

  @Test
  void theOptionIsChecked() {
    for (String bad : new String[] {"0", "21", "-1", "three", "2.5"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> CatalogOptions.parse("glue_retries", Map.of("glue.max-attempts", bad)));
      assertTrue(e.getMessage().contains("glue_retries") && e.getMessage().contains("glue.max-attempts")
          && e.getMessage().contains("from 1 to 20"), e.getMessage());
    }
    assertEquals(java.util.Optional.of(5), CatalogOptions.parse("c", Map.of("glue.max-attempts", "5")).glueMaxAttempts());
    assertEquals(java.util.Optional.empty(), CatalogOptions.parse("c", Map.of()).glueMaxAttempts());
  }
}
