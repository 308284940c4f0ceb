package org.opass.read.nn;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One plan a {@link ReadPlanTable} keeps: its id, owner and times, its planned reads grouped
 * into {@link PlanSlots.Part}s (one per reader and holders key, in submission order), and how
 * many of them were served. What {@link LivePlans} counts and {@link PlanSlots} serves from.
 * Its fields are fixed but the served count and the removed mark, which are thread-safe.
 */
final class StoredPlan {
  final String id;
  final String owner;
  final long createdMillis;
  final long expiresMillis;
  final int reads;
  final List<PlanSlots.Part> parts;
  final AtomicInteger served = new AtomicInteger();
  volatile boolean removed;

  StoredPlan(String id, String owner, long createdMillis, long expiresMillis,
      List<ReadPlanTable.PlannedRead> reads) {
    this.id = id;
    this.owner = owner;
    this.createdMillis = createdMillis;
    this.expiresMillis = expiresMillis;
    this.reads = reads.size();
    Map<String, Map<Long, List<String>>> grouped = new LinkedHashMap<>();
    for (ReadPlanTable.PlannedRead r : reads) {
      grouped.computeIfAbsent(r.reader, k -> new LinkedHashMap<>())
          .computeIfAbsent(r.holdersKey, k -> new ArrayList<>()).add(r.server);
    }
    List<PlanSlots.Part> built = new ArrayList<>();
    for (Map.Entry<String, Map<Long, List<String>>> byReader : grouped.entrySet()) {
      for (Map.Entry<Long, List<String>> e : byReader.getValue().entrySet()) {
        built.add(new PlanSlots.Part(this, byReader.getKey(), e.getKey(),
            e.getValue().toArray(new String[0])));
      }
    }
    this.parts = Collections.unmodifiableList(built);
  }

  boolean liveAt(long now) {
    return !removed && now < expiresMillis;
  }

  boolean finished() {
    return served.get() >= reads;
  }

  ReadPlanTable.PlanInfo info() {
    return new ReadPlanTable.PlanInfo(id, owner, createdMillis, expiresMillis, reads,
        Math.min(served.get(), reads));
  }
}
