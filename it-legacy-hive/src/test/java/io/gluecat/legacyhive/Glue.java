package io.gluecat.legacyhive;

import io.gluecat.testkit.MiniStack;
import software.amazon.awssdk.services.glue.GlueClient;

/** The tests' own Glue client on the JVM's MiniStack (one, kept open). */
final class Glue {
  private static GlueClient client;

  private Glue() {}

  static synchronized GlueClient client(MiniStack ministack) {
    if (client == null) {
      client = ministack.glue();
    }
    return client;
  }
}
