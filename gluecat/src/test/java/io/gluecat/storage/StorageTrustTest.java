package io.gluecat.storage;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StorageTrustTest {
  @Test
  void secretsAreKnownByTheirWordsWhateverTheFileSystem() {
    for (String key : new String[] {"fs.s3a.access.key", "fs.s3a.secret.key", "fs.s3a.session.token",
        "fs.s3a.encryption.key", "fs.s3a.server-side-encryption.key", "fs.s3a.bucket.b.secret.key",
        "fs.azure.account.key.acct.dfs.core.windows.net", "fs.azure.account.oauth2.client.secret",
        "fs.azure.sas.fixed.token", "fs.gs.auth.service.account.private.key", "fs.gs.auth.service.account.private.key.id",
        "fs.ftp.password.host", "dfs.webhdfs.oauth2.access.token", "hadoop.security.keystore.java-keystore-provider.password"}) {
      assertTrue(StorageTrust.isSecret(key), key);
    }
    for (String key : new String[] {"fs.s3a.endpoint", "fs.s3a.aws.credentials.provider", "fs.s3a.path.style.access",
        "fs.azure.account.keyprovider.acct", "fs.azure.sas.token.provider.type", "fs.s3a.encryption.algorithm",
        "fs.s3a.gluecat.role.arn"}) {
      assertFalse(StorageTrust.isSecret(key), key);
    }
  }

  @Test
  void hadoopSettingsAndClassNamesDecideStorage() {
    for (String key : new String[] {"fs.s3a.endpoint", "FS.s3a.endpoint", "dfs.client.use.datanode.hostname",
        "hadoop.security.credential.provider.path", "spark.hadoop.fs.s3a.endpoint", "parquet.crypto.factory.class",
        "mapreduce.output.fileoutputformat.compress", "io.compression.codecs"}) {
      assertTrue(StorageTrust.decidesStorage(key), key);
    }
    for (String key : new String[] {"header", "sep", "compression", "mergeSchema", "parquet.bloom.filter.enabled",
        "orc.compress", "dateFormat"}) {
      assertFalse(StorageTrust.decidesStorage(key), key);
    }
  }
}
