package io.gluecat.it;

import io.delta.storage.LogStore;
import java.io.FileInputStream;
import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.util.List;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * One writer of {@link MultiWriterIT}, in a JVM of its own, as a Spark application's driver would be: it
 * writes one commit file with the named Delta log store and prints {@code RESULT committed}, {@code RESULT
 * refused} (FileAlreadyExistsException) or {@code RESULT failed}. Arguments: log store class, commit path,
 * the commit's one line, a properties file of Hadoop settings.
 */
public final class LogStoreWriter {
  private LogStoreWriter() {}

  public static void main(String[] args) throws Exception {
    Configuration conf = new Configuration();
    Properties settings = new Properties();
    try (InputStream in = new FileInputStream(args[3])) {
      settings.load(in);
    }
    settings.forEach((k, v) -> conf.set((String) k, (String) v));
    LogStore store = (LogStore) Class.forName(args[0]).getConstructor(Configuration.class).newInstance(conf);
    String result;
    try {
      store.write(new Path(args[1]), List.of(args[2]).iterator(), false, conf);
      result = "committed";
    } catch (FileAlreadyExistsException e) {
      result = "refused";
    } catch (Exception e) {
      e.printStackTrace();
      result = "failed " + e;
    }
    System.out.println("RESULT " + result);
    System.out.flush();
    System.exit(0);
  }
}
