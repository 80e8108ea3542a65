package io.gluecat;

import io.gluecat.catalog.AbstractGlueCatalog;

/**
 * The class Spark loads: {@code spark.sql.catalog.<name>=io.gluecat.GlueCatalog}. All logic lives in
 * AbstractGlueCatalog; this Spark line adds nothing.
 */
public class GlueCatalog extends AbstractGlueCatalog {

  /**
   * Iceberg's procedures of a gluecat catalog on Spark 3.5, which has no procedure catalogs of its own: there
   * {@code CALL} exists only through Iceberg's session extension, whose analyzer takes procedures only from a
   * catalog that is Iceberg's {@code ProcedureCatalog}. gluecat's extension routes a {@code CALL} on a gluecat
   * catalog to a catalog of this class, which it registers for that catalog
   * ({@code extensions.iceberg.PlanIcebergStatements}); it hands over the procedure of the Iceberg catalog behind
   * the gluecat catalog, which then runs as it would from Iceberg's own. Spark loads it by name, and only where
   * Iceberg's runtime parsed a {@code CALL}.
   */
  public static final class IcebergProcedures
      implements org.apache.spark.sql.connector.iceberg.catalog.ProcedureCatalog {
    /** The option naming the gluecat catalog whose procedures these are. */
    public static final String CATALOG = "gluecat-catalog";
    private String name;
    private String catalog;

    @Override
    public void initialize(String name, org.apache.spark.sql.util.CaseInsensitiveStringMap options) {
      this.name = name;
      this.catalog = options.get(CATALOG);
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public org.apache.spark.sql.connector.iceberg.catalog.Procedure loadProcedure(
        org.apache.spark.sql.connector.catalog.Identifier ident)
        throws org.apache.spark.sql.catalyst.analysis.NoSuchProcedureException {
      GlueCatalog glue = (GlueCatalog) org.apache.spark.sql.SparkSession.active().sessionState().catalogManager()
          .catalog(catalog);
      return ((org.apache.spark.sql.connector.iceberg.catalog.ProcedureCatalog) glue.icebergProcedures(ident))
          .loadProcedure(ident);
    }
  }
}
