package org.opass.read.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanJsonTest {

  @Test
  void roundTripsThroughAJsonParser() throws Exception {
    String odd = "/we\"ird\\path\n\t\u0001ü";
    List<Chunk> chunks = List.of(new Chunk(7, odd, 64, 10, List.of("h0", "h1")),
        new Chunk(8, "/b", 0, 20, List.of("h9")));
    List<Proc> procs = List.of(new Proc(3, "h0"), new Proc(4, "h\"1"));
    Plan plan = EqualAssignment.plan(chunks, procs);
    JsonNode root = new ObjectMapper().readTree(plan.toJson());
    JsonNode s = root.get("summary");
    assertEquals(2, s.get("chunks").asInt());
    assertEquals(2, s.get("processes").asInt());
    assertEquals(1, s.get("min_share").asInt());
    assertEquals(1, s.get("max_share").asInt());
    assertEquals(1, s.get("local").get("chunks").asInt());
    assertEquals(10, s.get("local").get("bytes").asLong());
    assertEquals(20, s.get("remote").get("bytes").asLong());
    assertEquals(0, s.get("rack_local").get("chunks").asInt());
    assertEquals(1, s.get("local_optimum").asInt());
    JsonNode p0 = root.get("processes").get(0);
    assertEquals(3, p0.get("id").asInt());
    JsonNode c = p0.get("chunks").get(0);
    assertEquals(odd, c.get("path").asText());
    assertEquals(7, c.get("id").asInt());
    assertEquals(64, c.get("offset").asLong());
    assertEquals("local", c.get("locality").asText());
    assertEquals("h\"1", root.get("processes").get(1).get("host").asText());
    assertEquals("remote", root.get("processes").get(1).get("chunks").get(0).get("locality")
        .asText());
  }
}
