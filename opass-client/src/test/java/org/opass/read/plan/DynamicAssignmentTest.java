package org.opass.read.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class DynamicAssignmentTest {

  @Test
  void ownListFirstInOrder() {
    DynamicAssignment<String> d = new DynamicAssignment<>(
        List.of(List.of("a", "b"), List.of("c")), (p, t) -> 0);
    assertEquals(Optional.of("a"), d.next(0));
    assertEquals(Optional.of("b"), d.next(0));
    assertEquals(1, d.remaining());
    assertEquals(Optional.of("c"), d.next(1));
    assertEquals(Optional.empty(), d.next(0));
    assertEquals(Optional.empty(), d.next(1));
    assertEquals(0, d.steals());
  }

  @Test
  void idleProcessStealsTheMostColocatedTaskOfTheLongestList() {
    // p0 is done; p1 has 2 left, p2 has 3 left: steal from p2 the task with most bytes on p0
    Map<String, Long> onP0 = Map.of("x", 5L, "y", 50L, "z", 7L, "u", 99L);
    DynamicAssignment<String> d = new DynamicAssignment<>(
        List.of(List.of(), List.of("u", "v"), List.of("x", "y", "z")),
        (p, t) -> p == 0 ? onP0.getOrDefault(t, 0L) : 0);
    assertEquals(Optional.of("y"), d.next(0));
    assertEquals(1, d.steals());
    assertEquals(2, d.remaining(2));
    // now p1 and p2 both have 2: the lower index (p1) is the longest, and u is best there
    assertEquals(Optional.of("u"), d.next(0));
    // p2's own order is unchanged by the steal
    assertEquals(Optional.of("x"), d.next(2));
    assertEquals(Optional.of("z"), d.next(2));
    assertEquals(Optional.of("v"), d.next(2));
    assertEquals(Optional.empty(), d.next(1));
    assertEquals(3, d.steals());
  }

  @Test
  void onTiesTheVictimsLastTaskIsStolen() {
    DynamicAssignment<String> d = new DynamicAssignment<>(
        List.of(List.of(), List.of("a", "b", "c")), (p, t) -> 1);
    assertEquals(Optional.of("c"), d.next(0));
    assertEquals(Optional.of("a"), d.next(1));
  }

  @Test
  void fromAPlanStealsALocalChunk() {
    List<Proc> procs = List.of(new Proc(0, "h0"), new Proc(1, "h1"));
    List<Chunk> chunks = List.of(Chunk.of(0, 10, "h0"), Chunk.of(1, 10, "h0"),
        Chunk.of(2, 10, "h1"), Chunk.of(3, 10, "h1", "h0"));
    Plan plan = EqualAssignment.plan(chunks, procs);
    DynamicAssignment<Chunk> d = DynamicAssignment.of(plan);
    // p0 runs its own two chunks, then steals from p1 the one with a replica on h0
    List<Chunk> p0 = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      p0.add(d.next(0).orElseThrow());
    }
    assertEquals(plan.chunksOf(0), p0.subList(0, 2));
    assertTrue(p0.get(2).isOn("h0"), p0.toString());
    assertEquals(1, d.remaining());
  }

  @Test
  void fromAMultiInputPlan() {
    List<Proc> procs = List.of(new Proc(0, "h0"), new Proc(1, "h1"));
    Task t0 = new Task(0, List.of(Chunk.of(0, 10, "h0")));
    Task t1 = new Task(1, List.of(Chunk.of(1, 10, "h1")));
    Task t2 = new Task(2, List.of(Chunk.of(2, 10, "h1"), Chunk.of(3, 5, "h0")));
    Task t3 = new Task(3, List.of(Chunk.of(4, 10, "h1")));
    MultiInputPlan plan = MultiInputAssignment.plan(List.of(t0, t1, t2, t3), procs);
    DynamicAssignment<Task> d = DynamicAssignment.of(plan);
    // Algorithm 1: p1 takes t2 from p0 (10 > 5), p0 gets t3 instead
    assertEquals(List.of(t0, t3), plan.tasksOf(0));
    assertEquals(List.of(t1, t2), plan.tasksOf(1));
    assertEquals(t0, d.next(0).orElseThrow());
    assertEquals(t3, d.next(0).orElseThrow());
    // p0 is idle first: of p1's list, t2 has 5 bytes on h0, t1 none
    assertEquals(t2, d.next(0).orElseThrow());
    assertEquals(t1, d.next(1).orElseThrow());
    assertEquals(Optional.empty(), d.next(1));
  }

  @Test
  void concurrentWorkersGetEveryTaskExactlyOnce() throws Exception {
    int m = 8;
    int perList = 500;
    List<List<Integer>> lists = new ArrayList<>();
    int id = 0;
    for (int p = 0; p < m; p++) {
      List<Integer> l = new ArrayList<>();
      // uneven lists so that stealing happens
      for (int i = 0; i < perList * (p % 3 == 0 ? 3 : 1); i++) {
        l.add(id++);
      }
      lists.add(l);
    }
    int total = id;
    DynamicAssignment<Integer> d = new DynamicAssignment<>(lists, (p, t) -> (t * 31L + p) % 7);
    Map<Integer, Integer> seen = new ConcurrentHashMap<>();
    AtomicInteger duplicates = new AtomicInteger();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int p = 0; p < m; p++) {
      int proc = p;
      Thread t = new Thread(() -> {
        try {
          start.await();
        } catch (InterruptedException e) {
          return;
        }
        for (Optional<Integer> x = d.next(proc); x.isPresent(); x = d.next(proc)) {
          if (seen.put(x.get(), proc) != null) {
            duplicates.incrementAndGet();
          }
        }
      });
      threads.add(t);
      t.start();
    }
    start.countDown();
    for (Thread t : threads) {
      t.join(10_000);
    }
    assertEquals(0, duplicates.get());
    assertEquals(total, seen.size());
    assertEquals(0, d.remaining());
  }

  @Test
  void badArgumentsAreNamed() {
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> new DynamicAssignment<String>(List.of(), (p, t) -> 0)).getMessage()
        .contains("lists"));
    List<List<String>> withNull = new ArrayList<>();
    withNull.add(null);
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> new DynamicAssignment<String>(withNull, (p, t) -> 0)).getMessage()
        .contains("lists[0]"));
    DynamicAssignment<String> d = new DynamicAssignment<>(List.of(List.of("a")), (p, t) -> 0);
    assertThrows(IndexOutOfBoundsException.class, () -> d.next(1));
  }
}
