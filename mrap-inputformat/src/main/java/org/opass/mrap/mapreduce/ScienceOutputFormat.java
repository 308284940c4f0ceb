package org.opass.mrap.mapreduce;

import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.mapred.FileAlreadyExistsException;
import org.apache.hadoop.mapred.InvalidJobConfException;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.OutputFormat;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.security.TokenCache;
import org.opass.mrap.science.ArrayIndex;
import org.opass.mrap.science.ArrayPiece;
import org.opass.mrap.settings.InvalidSettingsException;
import org.opass.mrap.settings.MrapConf;
import org.opass.mrap.settings.VariableSettings;
import org.opass.mrap.write.DatasetCommit;
import org.opass.mrap.write.OutputDataset;
import org.opass.mrap.write.OutputDimension;
import org.opass.mrap.write.PartWriter;

/**
 * A MapReduce job's output written as one CF dataset, a NetCDF-3 file or a Zarr v2 store, the
 * same files Spark's {@code df.write.format("mrap")} writes ({@link PartWriter}, {@link
 * DatasetCommit}): the grid and variables are an {@link OutputDataset} the job gives {@link
 * #configure}, cut along its first dimension into parts; each reducer writes the parts it owns
 * into the write's work folder, and the job's commit assembles the dataset and publishes it in
 * one step ({@link ScienceOutputCommitter}). A failed or killed job leaves nothing at the
 * destination.
 *
 * <p>Records: the key is an {@link ArrayIndex}, the grid index (from 0, one a dimension) of the
 * record's first element; its {@link ArrayIndex#file() file} names the variable where the
 * dataset has several (empty: the first), and is not read where it has one, so that {@link
 * VariableInputFormat}'s keys pass through unchanged. The value is either
 * <ul>
 *   <li>an {@link ArrayPiece}, a box of one variable's elements: element {@code (k0, .., kn)} is
 *   the grid point {@code origin[d] + k[d] * step[d]}; {@link ArrayPiece#getDouble} gives the
 *   value (a decoded piece's physical values, a raw piece's stored numbers) and a {@link
 *   ArrayPiece#isMissing missing} element is written as the variable's fill; or</li>
 *   <li>a {@link GridValues}, the values of all the variables at the key's point, NaN where
 *   missing, for jobs that compute points (set the map output value class to it).</li>
 * </ul>
 * Values are packed where the variable is ({@link org.opass.mrap.write.OutputVariable#encode});
 * a point written twice, a value that does not fit its variable's type and a point off the grid
 * fail the task, naming them. Grid points no record names hold the fill.
 *
 * <p>A piece lies in one part: the part of its key's first index must hold all its rows, else
 * the task fails with an {@link IllegalArgumentException} naming the piece (origin, shape, step)
 * and the part's rows. A job whose pieces are boxes of {@code e} rows from multiples of {@code
 * e} (a chunked variable's chunks, as {@link VariableInputFormat} reads them) aligns the parts
 * to them with {@link #configure(Job, OutputDataset, Path, boolean, int)}.
 *
 * <p>Memory: {@link #configure} sorts the records a reducer gets by point ({@link PointOrder}:
 * the grid index, then the variable), so a reducer gets its parts one after another and holds
 * one {@link PartWriter} at a time, a part of all the variables: a part is written into the
 * work folder when the records of the next one begin, and a record that comes back to a part
 * already written is refused by name (a sort order that is not the point's). The parts a
 * reducer owns that no record names are written at its end, all fill, so that every part
 * exists.
 *
 * <table>
 *   <caption>Settings ({@link #configure} sets them)</caption>
 *   <tr><td>{@value #DATASET}</td><td>the dataset, {@link OutputDataset#encode encoded}</td></tr>
 *   <tr><td>{@value #PATH}</td><td>where it is published: a file (NetCDF) or a folder
 *   (Zarr)</td></tr>
 *   <tr><td>{@value #OVERWRITE}</td><td>{@code true}: an existing destination is replaced by
 *   the job's commit; {@code false} (default): it is refused at submission</td></tr>
 * </table>
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public class ScienceOutputFormat extends OutputFormat<ArrayIndex, Writable> {
  /** The written dataset, {@link OutputDataset#encode encoded}. */
  public static final String DATASET = "mrap.science.output.dataset";
  /** Where the dataset is published. */
  public static final String PATH = "mrap.science.output.path";
  /** Whether an existing destination is replaced; false by default. */
  public static final String OVERWRITE = "mrap.science.output.overwrite";
  /** Every setting under {@code mrap.science.output.}. */
  public static final List<String> KEYS = List.of(DATASET, PATH, OVERWRITE);
  /** The job's reduce tasks (Hadoop's key). */
  private static final String REDUCES = MRJobConfig.NUM_REDUCES;
  private static final String MAP_ONLY = " a map-only job cannot write a dataset: each part is "
      + "written by one task, so the records go through reducers (" + REDUCES + " > 0)";

  /**
   * Sets {@code job} to write {@code dataset} to {@code dst}: the settings, this output format,
   * the map output key class ({@link ArrayIndex}) and value class ({@link ArrayPiece}, unless
   * the job set one, such as {@link GridValues}), {@link SciencePartitioner}, the sort by point
   * ({@link PointOrder}), and as many reduce tasks as parts, or fewer if the job asked for fewer
   * ({@code job.setNumReduceTasks} before this call; each then writes a range of parts).
   *
   * @throws IllegalArgumentException if the job is map-only ({@code mapreduce.job.reduces=0})
   */
  public static void configure(Job job, OutputDataset dataset, Path dst, boolean overwrite)
      throws IOException {
    Configuration conf = job.getConfiguration();
    int reduces = dataset.parts();
    if (setByJob(conf, REDUCES)) {
      if (job.getNumReduceTasks() <= 0) {
        throw new IllegalArgumentException(REDUCES + "=" + job.getNumReduceTasks() + ":"
            + MAP_ONLY);
      }
      reduces = Math.min(reduces, job.getNumReduceTasks());
    }
    conf.set(DATASET, dataset.encode());
    conf.set(PATH, dst.getFileSystem(conf).makeQualified(dst).toString());
    conf.setBoolean(OVERWRITE, overwrite);
    job.setOutputFormatClass(ScienceOutputFormat.class);
    job.setMapOutputKeyClass(ArrayIndex.class);
    if (conf.get(MRJobConfig.MAP_OUTPUT_VALUE_CLASS) == null) {
      job.setMapOutputValueClass(ArrayPiece.class);
    }
    job.setOutputKeyClass(ArrayIndex.class);
    job.setOutputValueClass(job.getMapOutputValueClass());
    job.setPartitionerClass(SciencePartitioner.class);
    job.setSortComparatorClass(PointOrder.class);
    job.setNumReduceTasks(reduces);
  }

  /**
   * As {@link #configure(Job, OutputDataset, Path, boolean)}, the parts aligned to the records'
   * pieces: boxes of {@code pieceRows} rows of the first dimension from multiples of it (a
   * chunked variable's chunk rows), so that each lies in one part ({@link
   * OutputDataset#alignedTo}).
   */
  public static void configure(Job job, OutputDataset dataset, Path dst, boolean overwrite,
      int pieceRows) throws IOException {
    configure(job, dataset.alignedTo(pieceRows), dst, overwrite);
  }

  /** Whether {@code key} was set other than by Hadoop's defaults. */
  private static boolean setByJob(Configuration conf, String key) {
    if (conf.get(key) == null) {
      return false;
    }
    String[] from = conf.getPropertySources(key);
    return from == null || !Arrays.asList(from).equals(List.of("mapred-default.xml"));
  }

  /**
   * The dataset {@code conf} names ({@value #DATASET}).
   *
   * @throws IllegalArgumentException naming the key where it is unset or not a dataset
   */
  public static OutputDataset dataset(Configuration conf) {
    String text = conf.get(DATASET);
    if (text == null || text.isEmpty()) {
      throw new IllegalArgumentException(DATASET + " is unset: set up the job with "
          + "ScienceOutputFormat.configure");
    }
    try {
      return OutputDataset.decode(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(DATASET + ": " + e.getMessage(), e);
    }
  }

  /**
   * The destination {@code conf} names ({@value #PATH}).
   *
   * @throws IllegalArgumentException naming the key where it is unset
   */
  static Path destination(Configuration conf) {
    String p = conf.get(PATH);
    if (p == null || p.trim().isEmpty()) {
      throw new IllegalArgumentException(PATH + " is unset: set up the job with "
          + "ScienceOutputFormat.configure");
    }
    return new Path(p.trim());
  }

  /** The write {@code conf} describes, its work folder as the job's setup made it. */
  static DatasetCommit write(Configuration conf) throws IOException {
    return DatasetCommit.resume(conf, destination(conf), conf.getBoolean(OVERWRITE, false));
  }

  /**
   * Refuses, naming the keys, a job without a dataset or a destination, an unknown {@code
   * mrap.science.output.} key (a misspelt one), a map-only job, and a destination that exists
   * while {@value #OVERWRITE} is false; nothing is written.
   */
  @Override
  public void checkOutputSpecs(JobContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    Path dst;
    try {
      MrapConf.checkKeys(conf, VariableSettings.OUTPUT, KEYS);
      dataset(conf);
      dst = destination(conf);
    } catch (InvalidSettingsException | IllegalArgumentException e) {
      throw new InvalidJobConfException(e.getMessage(), e);
    }
    if (context.getNumReduceTasks() <= 0) {
      throw new InvalidJobConfException(REDUCES + "=" + context.getNumReduceTasks() + ":"
          + MAP_ONLY);
    }
    FileSystem fs = dst.getFileSystem(conf);
    TokenCache.obtainTokensForNamenodes(context.getCredentials(), new Path[] {dst}, conf);
    if (!conf.getBoolean(OVERWRITE, false) && fs.exists(dst)) {
      throw new FileAlreadyExistsException(PATH + "=" + dst + " exists and " + OVERWRITE
          + " is false: write elsewhere, remove it, or replace it (" + OVERWRITE + "=true)");
    }
  }

  @Override
  public RecordWriter<ArrayIndex, Writable> getRecordWriter(TaskAttemptContext context)
      throws IOException {
    Configuration conf = context.getConfiguration();
    if (context.getTaskAttemptID().getTaskType() != TaskType.REDUCE) {
      throw new IOException(context.getTaskAttemptID() + ": ScienceOutputFormat writes from "
          + "reducers;" + MAP_ONLY);
    }
    return new PartsWriter(conf, dataset(conf), write(conf).work(),
        context.getTaskAttemptID().getTaskID().getId(), context.getNumReduceTasks(),
        context.getTaskAttemptID().toString());
  }

  @Override
  public OutputCommitter getOutputCommitter(TaskAttemptContext context) {
    return new ScienceOutputCommitter();
  }

  /**
   * The part of {@code key}'s point.
   *
   * @throws IllegalArgumentException naming the key where its rank is not the grid's or its
   *     first index lies off the grid
   */
  static int partOf(OutputDataset ds, ArrayIndex key) {
    List<OutputDimension> dims = ds.dimensions();
    if (key.rank() != dims.size()) {
      throw new IllegalArgumentException("the record key " + key + " has " + key.rank()
          + " indices; the dataset's grid " + dims + " has " + dims.size() + " dimensions");
    }
    long i0 = key.origin(0);
    if (i0 < 0 || i0 >= dims.get(0).length()) {
      throw new IllegalArgumentException("the record key " + key + " lies off the grid: "
          + dims.get(0).name() + " has indices 0 to " + (dims.get(0).length() - 1));
    }
    return ds.part((int) i0);
  }

  /**
   * The sort of a reducer's records: by grid index, then by variable (the key's file), so that
   * the parts of a reducer arrive one after another whatever the variables.
   */
  @InterfaceAudience.Private
  @InterfaceStability.Unstable
  public static final class PointOrder extends WritableComparator {
    public PointOrder() {
      super(ArrayIndex.class, true);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public int compare(WritableComparable a, WritableComparable b) {
      ArrayIndex x = (ArrayIndex) a;
      ArrayIndex y = (ArrayIndex) b;
      int c = Arrays.compare(x.origin(), y.origin());
      return c != 0 ? c : x.file().compareTo(y.file());
    }
  }

  /**
   * A reducer's writer: its range of parts, one {@link PartWriter} open at a time; at close the
   * parts not yet written, then the list of what it wrote ({@link
   * ScienceOutputCommitter#pending}), which the task's commit makes the job's.
   */
  private static final class PartsWriter extends RecordWriter<ArrayIndex, Writable> {
    private final OutputDataset ds;
    private final FileSystem fs;
    private final Path work;
    private final String attempt;
    private final int reducer;
    private final int firstPart;
    private final int endPart;
    private final long[] strides;
    private final BitSet written = new BitSet();
    private final List<String> names = new ArrayList<>();
    private PartWriter open;
    private boolean failed;

    PartsWriter(Configuration conf, OutputDataset ds, Path work, int reducer, int reducers,
        String attempt) throws IOException {
      this.ds = ds;
      this.fs = work.getFileSystem(conf);
      this.work = work;
      this.attempt = attempt;
      this.reducer = reducer;
      this.firstPart = SciencePartitioner.firstPart(reducer, ds.parts(), reducers);
      this.endPart = SciencePartitioner.firstPart(reducer + 1, ds.parts(), reducers);
      long[] shape = ds.shape();
      this.strides = new long[shape.length];
      long s = 1;
      for (int d = shape.length - 1; d >= 0; d--) {
        strides[d] = s;
        s *= shape[d];
      }
    }

    @Override
    public void write(ArrayIndex key, Writable value) throws IOException {
      try {
        if (value instanceof ArrayPiece) {
          writePiece(key, (ArrayPiece) value);
        } else if (value instanceof GridValues) {
          writePoint(key, (GridValues) value);
        } else {
          throw new IllegalArgumentException("a record of ScienceOutputFormat holds an "
              + "ArrayPiece or GridValues, not " + (value == null ? "null"
              : value.getClass().getName()) + " (at " + key + ")");
        }
      } catch (IOException | RuntimeException e) {
        failed = true; // the task fails: its close writes nothing more
        throw e;
      }
    }

    private void writePiece(ArrayIndex key, ArrayPiece piece) throws IOException {
      int var = variable(key);
      String name = ds.variables().get(var).name();
      int part = partOf(ds, key);
      int[] shape = piece.shape();
      long[] step = piece.step();
      long[] origin = key.origin();
      String what = name + ": the piece at " + Arrays.toString(origin) + " of shape "
          + Arrays.toString(shape) + " (step " + Arrays.toString(step) + ")";
      if (shape.length != origin.length) {
        throw new IllegalArgumentException(what + " has " + shape.length + " dimensions; its "
            + "key has " + origin.length);
      }
      List<OutputDimension> dims = ds.dimensions();
      long elements = 1;
      for (int d = 0; d < shape.length; d++) {
        elements *= shape[d];
        if (shape[d] == 0) {
          return; // no element
        }
        long last = origin[d] + (shape[d] - 1) * step[d];
        if (origin[d] < 0 || step[d] < 1 || last >= dims.get(d).length()) {
          throw new IllegalArgumentException(what + " reaches index " + last + " of "
              + dims.get(d).name() + ", which has indices 0 to " + (dims.get(d).length() - 1));
        }
      }
      if (elements != piece.elements()) {
        throw new IllegalArgumentException(what + " holds " + piece.elements()
            + " elements, not the " + elements + " of its shape");
      }
      long lastRow = origin[0] + (shape[0] - 1) * step[0];
      if (lastRow >= ds.partEnd(part)) {
        throw new IllegalArgumentException(what + " spans rows [" + origin[0] + ", "
            + (lastRow + 1) + ") of " + dims.get(0).name() + ", but the part of its first "
            + "row, part " + part + ", holds rows [" + ds.partStart(part) + ", "
            + ds.partEnd(part) + "): a piece must lie in one part; when pieces are boxes of e "
            + "rows from multiples of e (a chunked variable's chunks), "
            + "ScienceOutputFormat.configure(job, dataset, path, overwrite, e) aligns the parts "
            + "to them");
      }
      PartWriter w = writer(part, key);
      int rank = shape.length;
      long index = 0;
      long[] delta = new long[rank];
      for (int d = 0; d < rank; d++) {
        index += origin[d] * strides[d];
        delta[d] = step[d] * strides[d];
      }
      int[] k = new int[rank];
      for (int i = 0; i < elements; i++) {
        w.put(var, index, piece.getDouble(i));
        for (int d = rank - 1; d >= 0; d--) { // the next element, C order
          index += delta[d];
          if (++k[d] < shape[d]) {
            break;
          }
          index -= delta[d] * shape[d];
          k[d] = 0;
        }
      }
    }

    private void writePoint(ArrayIndex key, GridValues values) throws IOException {
      int part = partOf(ds, key);
      List<OutputDimension> dims = ds.dimensions();
      if (values.size() != ds.variables().size()) {
        throw new IllegalArgumentException("the point " + key + " holds " + values.size()
            + " values; the dataset has " + ds.variables().size() + " variables, "
            + ds.variables());
      }
      long index = 0;
      for (int d = 0; d < dims.size(); d++) {
        long i = key.origin(d);
        if (i < 0 || i >= dims.get(d).length()) {
          throw new IllegalArgumentException("the point " + key + " lies off the grid: "
              + dims.get(d).name() + " has indices 0 to " + (dims.get(d).length() - 1));
        }
        index += i * strides[d];
      }
      PartWriter w = writer(part, key);
      for (int v = 0; v < values.size(); v++) {
        w.put(v, index, values.get(v));
      }
    }

    /** The variable a key names: its file where the dataset has several, else the one. */
    private int variable(ArrayIndex key) {
      if (ds.variables().size() == 1 || key.file().isEmpty()) {
        return 0;
      }
      for (int v = 0; v < ds.variables().size(); v++) {
        if (ds.variables().get(v).name().equals(key.file())) {
          return v;
        }
      }
      throw new IllegalArgumentException("the record key " + key + " names the variable "
          + key.file() + ", which the dataset does not hold: " + ds.variables() + " (an empty "
          + "name is the first)");
    }

    /** The writer of part {@code part}, the one open before written if it is another's. */
    private PartWriter writer(int part, ArrayIndex key) throws IOException {
      if (open != null && open.part() == part) {
        return open;
      }
      if (part < firstPart || part >= endPart) {
        throw new IllegalArgumentException("the record " + key + " lies in part " + part
            + ", but reducer " + reducer + " writes parts " + firstPart + " to " + (endPart - 1)
            + ": records reach their part's reducer through SciencePartitioner, and a reducer "
            + "emits the points of the records it gets");
      }
      if (written.get(part)) {
        throw new IllegalStateException("the record " + key + " lies in part " + part
            + ", which this reducer wrote already: its records come sorted by point "
            + "(ScienceOutputFormat.PointOrder), a part after another; keep that sort order");
      }
      flush();
      open = new PartWriter(ds, part);
      return open;
    }

    private void flush() throws IOException {
      if (open != null) {
        names.addAll(open.write(fs, work, attempt));
        written.set(open.part());
        open = null;
      }
    }

    @Override
    public void close(TaskAttemptContext context) throws IOException {
      if (failed) {
        return;
      }
      flush();
      for (int p = firstPart; p < endPart; p++) {
        if (!written.get(p)) { // no record named it: all fill, but it must exist
          open = new PartWriter(ds, p);
          flush();
        }
      }
      try (FSDataOutputStream out = fs.create(ScienceOutputCommitter.pending(work, attempt),
          true)) {
        ScienceOutputCommitter.writeNames(new DataOutputStream(out), names);
      }
    }
  }
}
