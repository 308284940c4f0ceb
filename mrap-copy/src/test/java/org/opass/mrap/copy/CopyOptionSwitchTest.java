package org.opass.mrap.copy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** The options of {@code mrap-copy}: the usage text, the parsing and the job's settings. */
class CopyOptionSwitchTest {
  @Test
  void theUsageShowsEveryOptionWithItsHelp() {
    String usage = MrapCopy.usage();
    for (CopyOptionSwitch option : CopyOptionSwitch.values()) {
      assertTrue(usage.contains(" " + option.synopsis() + " "), option.synopsis());
      assertTrue(usage.contains("\n  " + option.label() + " "), option.label());
      assertTrue(usage.contains(option.help() + "\n"), option.help());
    }
    assertTrue(usage.startsWith("usage: hadoop jar mrap-copy.jar [generic options] [-pattern "
        + "FILE] [-pack] [-task-bytes N] [-mode auto|single|parallel] [-overwrite] "
        + "[-no-verify] SRC... DST\n"), usage);
  }

  @Test
  void aCopyJobIsGivenTheOptionsItActsOnUnderTheirKeys() throws Exception {
    Configuration job = new Configuration(false);
    CopyOptions plain = MrapCopy.Arguments.parse(new String[] {"a", "b"}).options.build();
    for (CopyOptionSwitch option : CopyOptionSwitch.values()) {
      option.addToConf(job, plain);
    }
    assertEquals(2, job.size());
    assertFalse(job.getBoolean(CopyJobKeys.OVERWRITE, true));
    assertTrue(job.getBoolean(CopyJobKeys.VERIFY, false));
    CopyOptions asked = MrapCopy.Arguments.parse(new String[] {"-overwrite", "-no-verify",
        "-mode", "PARALLEL", "-task-bytes", "2m", "a", "b"}).options.build();
    for (CopyOptionSwitch option : CopyOptionSwitch.values()) {
      option.addToConf(job, asked);
    }
    assertTrue(job.getBoolean(CopyJobKeys.OVERWRITE, false));
    assertFalse(job.getBoolean(CopyJobKeys.VERIFY, true));
    assertEquals(CopyOptions.Mode.PARALLEL, asked.mode());
    assertEquals(2 << 20, asked.taskBytes());
  }
}
