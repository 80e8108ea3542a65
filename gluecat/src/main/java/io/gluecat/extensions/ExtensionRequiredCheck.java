package io.gluecat.extensions;

import io.gluecat.extensions.partitions.RewriteShowPartitions;
import io.gluecat.extensions.views.RewriteViewCommands;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.SparkSessionExtensionsProvider;
import org.apache.spark.sql.catalyst.parser.ParserInterface;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * Loaded by Spark for every session from gluecat's jar (a {@code SparkSessionExtensionsProvider} service), unlike
 * {@link GlueCatalogExtensions}, which users list in {@code spark.sql.extensions}. In a session without that
 * extension, a view statement on a gluecat name would fail with an error of Spark's that does not say what is
 * missing (or, in session mode, run on Spark's built-in catalog); this check refuses it first, naming the
 * setting. It does nothing else: a session that lists the extension gets Spark's parser unchanged.
 */
public final class ExtensionRequiredCheck extends AbstractFunction1<SparkSessionExtensions, BoxedUnit>
    implements SparkSessionExtensionsProvider {

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    extensions.injectParser((scala.Function2) new scala.runtime.AbstractFunction2<Object, Object, Object>() {
      @Override
      public Object apply(Object session, Object delegate) {
        SparkSession spark = (SparkSession) session;
        ParserInterface parser = (ParserInterface) delegate;
        return listsTheExtension(spark.sparkContext().getConf().get("spark.sql.extensions", ""))
            ? parser : wrap(spark, parser);
      }
    });
    return BoxedUnit.UNIT;
  }

  static boolean listsTheExtension(String extensions) {
    return GlueCatalogExtensions.listed(extensions).contains(GlueCatalogExtensions.class.getName());
  }

  /** Spark's parser, refusing the view statements that only gluecat's extension runs. */
  static ParserInterface wrap(SparkSession spark, ParserInterface delegate) {
    return GlueSqlParser.wrap(delegate, (plan, parseStart) -> {
      refuse(RewriteViewCommands.runOnlyByTheExtension(spark, plan));
      refuseShowPartitions(RewriteShowPartitions.runOnlyByTheExtension(spark, plan));
      return plan;
    });
  }

  private static void refuseShowPartitions(Optional<String> statement) {
    if (statement.isPresent()) {
      throw new UnsupportedOperationException(String.format("%s: SHOW PARTITIONS of gluecat's file source and "
          + "Hive-format tables needs gluecat's session extension, on every Spark line and in both catalog modes "
          + "(these tables do not offer Spark's partition management; the extension lists their partitions from "
          + "Glue). Start the session with spark.sql.extensions=%s,%s (docs/extensions.md).", statement.get(),
          GlueCatalogExtensions.class.getName(), GlueCatalogExtensions.DELTA_EXTENSIONS));
    }
  }

  private static void refuse(Optional<String> statement) {
    if (statement.isPresent()) {
      throw new UnsupportedOperationException(String.format("%s: view statements on a gluecat catalog need "
          + "gluecat's session extension on Spark 3.5 and 4.1, and in session mode on every line (Spark does not "
          + "send them to the catalog). Start the session with spark.sql.extensions=%s,%s (docs/extensions.md). "
          + "Nothing was written.", statement.get(), GlueCatalogExtensions.class.getName(),
          GlueCatalogExtensions.DELTA_EXTENSIONS));
    }
  }
}
