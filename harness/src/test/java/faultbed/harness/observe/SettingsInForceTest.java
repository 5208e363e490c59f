package faultbed.harness.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** What a record keeps of the job's settings: values as the job saw them, secrets never in the clear. */
class SettingsInForceTest {
  @Test
  void sensitiveValuesAreRedactedAsHadoopDoesAndTheRestKept() {
    Configuration conf = new Configuration(false);
    conf.set("mapreduce.job.reduce.slowstart.completedmaps", "1.0");
    conf.set("fs.s3a.secret.key", "s3-secret-value");
    conf.set("javax.jdo.option.ConnectionPassword", "hunter2"); // "password$" is case-sensitive: kept
    conf.set("ssl.server.keystore.password", "keystore-pass");
    conf.set("faultbed.speculation.params.secret", "policy-secret");
    conf.set("faultbed.speculation.policy", "late");

    Map<String, String> kept = RecordAssembly.settingsInForce(conf, Set.of("mapreduce.job.reduce.slowstart.completedmaps",
        "fs.s3a.secret.key", "ssl.server.keystore.password", "javax.jdo.option.ConnectionPassword", "not.set.anywhere"));

    assertEquals("1.0", kept.get("mapreduce.job.reduce.slowstart.completedmaps"));
    assertEquals("<redacted>", kept.get("fs.s3a.secret.key"));
    assertEquals("<redacted>", kept.get("ssl.server.keystore.password"));
    assertEquals("<redacted>", kept.get("faultbed.speculation.params.secret"));
    assertEquals("late", kept.get("faultbed.speculation.policy"));
    assertEquals("(unset)", kept.get("not.set.anywhere"));
    assertEquals("hunter2", kept.get("javax.jdo.option.ConnectionPassword"), "Hadoop's own patterns decide");
    for (String secret : java.util.List.of("s3-secret-value", "keystore-pass", "policy-secret")) {
      assertFalse(kept.containsValue(secret), secret + " in " + kept);
    }
  }

  @Test
  void aClusterThatNamesMoreSensitiveKeysHasThoseRedactedToo() {
    Configuration conf = new Configuration(false);
    conf.set("hadoop.security.sensitive-config-keys", "secret$,ConnectionPassword$,my\\.token$");
    conf.set("javax.jdo.option.ConnectionPassword", "hunter2");
    conf.set("my.token", "t0ken");

    Map<String, String> kept = RecordAssembly.settingsInForce(conf,
        Set.of("javax.jdo.option.ConnectionPassword", "my.token"));

    assertEquals("<redacted>", kept.get("javax.jdo.option.ConnectionPassword"));
    assertEquals("<redacted>", kept.get("my.token"));
  }
}
