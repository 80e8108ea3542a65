package io.gluecat.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LocationMapTest {
  private static final LocationMap TRINO =
      LocationMap.parse("local:///=file:/data/trino/, s3://old/=s3a://new/", IllegalArgumentException::new);

  @Test
  void readsStoredPrefixesWhereHadoopOpensThem() {
    assertEquals("file:/data/trino/db/t-1", TRINO.toHadoop("local:///db/t-1"));
    assertEquals("s3a://new/x/y", TRINO.toHadoop("s3://old/x/y"));
    assertEquals("s3a://other/x", TRINO.toHadoop("s3a://other/x"), "unmapped locations stay");
  }

  @Test
  void writesHadoopLocationsBackUnderTheStoredPrefixInEitherSpelling() {
    assertEquals("local:///db/t-2", TRINO.toStored("file:/data/trino/db/t-2"));
    assertEquals("local:///db/t-2", TRINO.toStored("file:///data/trino/db/t-2"));
    assertEquals("file:/data/trinox/t", TRINO.toStored("file:/data/trinox/t"), "prefixes end at a '/'");
  }

  @Test
  void refusesPairsThatAreNotPrefixPairs() {
    for (String bad : new String[] {"local:///", "=file:/x/", "local:///=", "local:///=file:/x", "nope/=file:/x/"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> LocationMap.parse(bad, IllegalArgumentException::new), bad);
      assertTrue(e.getMessage().contains("prefix") || e.getMessage().contains("<stored prefix>"), e.getMessage());
    }
  }
}
