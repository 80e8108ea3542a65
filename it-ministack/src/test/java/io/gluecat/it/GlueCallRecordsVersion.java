package io.gluecat.it;

import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.testkit.GlueCall;
import io.gluecat.testkit.GlueCallRecorder;
import java.util.List;

/** Assertions on what gluecat sent, where MiniStack would not notice a mistake. */
final class GlueCallRecordsVersion {
  private GlueCallRecordsVersion() {}

  /** Every UpdateTable named the VersionId it was based on (MiniStack accepts an update without one). */
  static void assertEveryUpdateNamedAVersion() {
    List<GlueCall> updates = GlueCallRecorder.callsOf("UpdateTable");
    assertFalse(updates.isEmpty(), "expected UpdateTable calls");
    updates.forEach(u -> assertNotNull(u.versionId(), "UpdateTable without VersionId: " + u));
  }
}
