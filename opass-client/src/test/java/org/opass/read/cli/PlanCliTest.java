package org.opass.read.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI on the local file system, where every block is on host {@code localhost}. */
class PlanCliTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  @TempDir
  Path dir;
  private String a;
  private String b;
  private String c;

  @BeforeEach
  void files() throws IOException {
    a = write("a", 100);
    b = write("b", 200);
    c = write("c", 300);
  }

  private String write(String name, int bytes) throws IOException {
    Path p = dir.resolve(name);
    Files.write(p, new byte[bytes]);
    return p.toString();
  }

  private int run(String... args) {
    out.reset();
    err.reset();
    return PlanCli.run(args, new Configuration(), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  private void assertUsage(String mentions, String... args) {
    assertEquals(2, run(args), err());
    assertTrue(err().contains(mentions), "expected '" + mentions + "' in: " + err());
    assertTrue(err().contains("usage: hadoop jar opass-client-*.jar plan"), err());
  }

  @Test
  void help() {
    assertEquals(0, run("--help"));
    assertTrue(out().startsWith("usage: hadoop jar opass-client-*.jar plan"), out());
    assertEquals(0, run("-h", "--bogus"));
  }

  @Test
  void usageErrorsNameTheBadArgument() throws IOException {
    assertUsage("'--bogus'", "--bogus", "--processes", "localhost", a);
    assertUsage("--processes", a);
    assertUsage("not both", "--processes", "x", "--processes-file", "f", a);
    assertUsage("--processes needs a value", a, "--processes");
    assertUsage("host 2 is empty", "--processes", "x,,y", a);
    assertUsage("--processes has an empty value", "--processes=", a);
    assertUsage("missing PATH", "--processes", "localhost");
    assertUsage("--json takes no value", "--json=yes", "--processes", "localhost", a);
    assertUsage("--processes given twice", "--processes", "x", "--processes", "y", a);
    assertUsage("--processes-file '" + dir.resolve("nope") + "': no such file",
        "--processes-file", dir.resolve("nope").toString(), a);
    assertUsage("--rack-map '" + dir.resolve("nope") + "': no such file",
        "--rack-map", dir.resolve("nope").toString(), "--processes", "localhost", a);
    Path badRacks = dir.resolve("racks");
    Files.writeString(badRacks, "# hosts\nlocalhost /r1\nelsewhere\n");
    assertUsage("line 3", "--rack-map", badRacks.toString(), "--processes", "localhost", a);
    Path emptyProcs = dir.resolve("procs");
    Files.writeString(emptyProcs, "# nobody\n\n");
    assertUsage("lists no hosts", "--processes-file", emptyProcs.toString(), a);
  }

  @Test
  void missingInputIsAFailure() {
    assertEquals(1, run("--processes", "localhost", dir.resolve("missing").toString()));
    assertTrue(err().contains("missing: no such file"), err());
  }

  @Test
  void textPlan() {
    assertEquals(0, run("--processes", "localhost,elsewhere", a, b, c), err());
    String text = out();
    assertTrue(text.startsWith("3 chunks (600 B) on 2 processes, 1-2 chunks each: 2 local "
        + "(66.7%), 0 rack-local, 1 remote"), text);
    assertTrue(text.matches("(?s).*\\n0\\s+localhost\\s+2\\s+\\S+ B\\s+2\\s+0\\s+0\\n.*"), text);
    assertTrue(text.matches("(?s).*\\n1\\s+elsewhere\\s+1\\s+\\S+ B\\s+0\\s+0\\s+1\\n.*"), text);
    assertEquals(3, text.lines().filter(l -> l.contains("file:" + dir)).count(), text);
  }

  @Test
  void jsonPlanWithRacksAndAProcessesFile() throws IOException {
    Path procs = dir.resolve("procs");
    Files.writeString(procs, "# one process per line\nlocalhost\n\nelsewhere\n");
    Path racks = dir.resolve("racks");
    Files.writeString(racks, "localhost /r1\nelsewhere   /r1\n");
    assertEquals(0, run("--json", "--rack-map", racks.toString(), "--processes-file",
        procs.toString(), a, b, c), err());
    JsonNode plan = new ObjectMapper().readTree(out());
    JsonNode s = plan.get("summary");
    assertEquals(3, s.get("chunks").asInt());
    assertEquals(2, s.get("local").get("chunks").asInt());
    assertEquals(1, s.get("rack_local").get("chunks").asInt());
    assertEquals(0, s.get("remote").get("chunks").asInt());
    assertEquals(600, s.get("total_bytes").asLong());
    JsonNode p1 = plan.get("processes").get(1);
    assertEquals("elsewhere", p1.get("host").asText());
    assertEquals("rack-local", p1.get("chunks").get(0).get("locality").asText());
    assertEquals("localhost", p1.get("chunks").get(0).get("hosts").get(0).asText());
  }

  @Test
  void directoriesAndNames() throws IOException {
    Files.createDirectories(dir.resolve("d/sub"));
    Files.write(dir.resolve("d/x"), new byte[10]);
    Files.write(dir.resolve("d/sub/y"), new byte[10]);
    Files.write(dir.resolve("d/_SUCCESS"), new byte[0]);
    Files.write(dir.resolve("d/.x.crc"), new byte[10]);
    assertEquals(0, run("--json", "--names", "--processes", "localhost:9866",
        dir.resolve("d").toString()), err());
    JsonNode s = new ObjectMapper().readTree(out()).get("summary");
    assertEquals(2, s.get("chunks").asInt());
    assertEquals(2, s.get("local").get("chunks").asInt());
  }
}
