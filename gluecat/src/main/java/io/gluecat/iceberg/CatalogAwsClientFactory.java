package io.gluecat.iceberg;

import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.aws.AwsClientFactories;
import org.apache.iceberg.aws.AwsClientFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The AWS clients of the Iceberg catalog behind a gluecat catalog's Iceberg tables ({@code client.factory}): its
 * Glue client is the gluecat catalog's own, lent ({@code glue.LentGlueClient}), found by the token gluecat puts in
 * Iceberg's properties ({@link IcebergProperties#LENT_CLIENT}); so Iceberg reaches Glue with the catalog's
 * credentials, role (with its STS endpoint), Glue endpoint, retries and metrics, and its load of a table takes the
 * entry gluecat has just read. The other clients (S3 and KMS, which only Iceberg's own S3 FileIO uses) are made by
 * Iceberg's own factories from the same properties. Iceberg creates this class by name; it is never loaded otherwise.
 */
public final class CatalogAwsClientFactory implements AwsClientFactory {
  private static final String CLIENT_FACTORY = "client.factory";
  private static final String ASSUME_ROLE_ARN = "client.assume-role.arn";

  private transient GlueClient glue;
  private AwsClientFactory others;

  @Override
  public void initialize(Map<String, String> properties) {
    glue = IcebergTables.lentClient(properties.get(IcebergProperties.LENT_CLIENT));
    Map<String, String> rest = new HashMap<>(properties);
    if (rest.containsKey(ASSUME_ROLE_ARN)) {
      rest.put(CLIENT_FACTORY, IcebergProperties.ASSUME_ROLE_FACTORY);
    } else {
      rest.remove(CLIENT_FACTORY);
    }
    others = AwsClientFactories.from(rest);
  }

  @Override
  public GlueClient glue() {
    if (glue == null) { // a copy of the factory on an executor: Iceberg asks for Glue on the driver only
      throw new IllegalStateException("gluecat's Glue client for Iceberg is only lent on the driver");
    }
    return glue;
  }

  @Override
  public S3Client s3() {
    return others.s3();
  }

  @Override
  public S3AsyncClient s3Async() {
    return others.s3Async();
  }

  @Override
  public KmsClient kms() {
    return others.kms();
  }

  @Override
  public DynamoDbClient dynamo() {
    return others.dynamo();
  }
}
