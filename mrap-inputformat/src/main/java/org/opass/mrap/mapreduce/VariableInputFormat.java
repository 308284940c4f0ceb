package org.opass.mrap.mapreduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.opass.mrap.format.VariableTiles;
import org.opass.mrap.fs.HdfsStore;
import org.opass.mrap.locality.SplitLocality;
import org.opass.mrap.plan.VariablePlanner;
import org.opass.mrap.read.MrapCounter;
import org.opass.mrap.science.ArrayIndex;
import org.opass.mrap.science.ArrayPiece;
import org.opass.mrap.science.ScienceFiles;
import org.opass.mrap.settings.InvalidSettingsException;
import org.opass.mrap.settings.VariableSettings;
import org.opass.mrap.task.VariableTask;

/**
 * MRAP over scientific files: one variable of NetCDF or HDF5 files, by name, and a slab of it,
 * instead of byte offsets. At submission each input file's header is read with a few
 * positioned reads (eight files at a time), and the slab becomes MRAP's pattern model: the
 * runs of a contiguous or NetCDF-3 variable (record variables interleave, their outer stride
 * the record), or the chunks of a chunked one that hold a selected element. Records: key
 * {@link ArrayIndex} (file, array index of the first element), value {@link ArrayPiece} (the
 * elements, their shape, type and byte order); compressed chunks are decoded in the task.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><td>{@value #KIND}</td><td>{@code netcdf} (NetCDF-3 classic, 64-bit offset, CDF-5, and
 *   NetCDF-4) or {@code hdf5}</td></tr>
 *   <tr><td>{@value #VARIABLE}</td><td>the NetCDF variable ({@code group/name} in NetCDF-4) or
 *   HDF5 dataset path</td></tr>
 *   <tr><td>{@value #SLAB}</td><td>per dimension {@code start:stop[:stride]}, an index, or
 *   HDF5's {@code start/stride/count/block}, comma-separated; unset: the whole variable</td></tr>
 *   <tr><td>{@value #TILE}</td><td>instead of a slab: the whole variable cut into tiles, per
 *   dimension an extent or {@code *} (e.g. {@code *,30,30}: every time step over 30 x 30
 *   boxes), a task a tile of a file ({@link VariableTiles}: a variable stored as one
 *   array)</td></tr>
 *   <tr><td>{@value #SELECT}</td><td>instead of a slab: per dimension a range of coordinate
 *   values or one value, e.g. {@code time=2020-06-01:2020-08-31T23:00, latitude=30:45} ({@link
 *   org.opass.mrap.cf.Selection}); each file's slab from its own coordinates, read at
 *   submission; a file it picks nothing in is skipped</td></tr>
 *   <tr><td>{@value #DECODE}</td><td>{@code true} (default): values decoded as CF says ({@link
 *   org.opass.mrap.cf.CfDecoding}: fill, missing and invalid values missing, packed values
 *   unpacked, {@code _Unsigned}); {@code false}: the values stored</td></tr>
 * </table>
 * The files may differ in shape: an unset slab reads each whole, a set one must fit each (a
 * file it does not fit is named). Tasks: each file's regions are cut by block and the pieces
 * of all files shared out over the hosts that hold them ({@link SplitLocality#virtualSplits}),
 * {@value AccessInputFormat#SPLIT_BYTES} bytes a task (default: at most a block, and tasks
 * enough for every host holding the data to have one), so a task reads a set of small files,
 * or a block of a large one, on the host that holds them. The
 * {@code mrap.access.*} settings of {@link AccessInputFormat} apply (coalescing gap, record
 * bytes). A file restructured by {@code mrap-copy} for the same variable and slab is read
 * by its packed tasks, each contiguously; for another slab, {@value
 * AccessInputFormat#RESTRUCTURED}{@code =index} reads it through its layout, else it is
 * refused naming both.
 *
 * <p>Values are those netCDF-C and HDF5 read, decoded as netCDF4-python's automatic mask and
 * scale decodes them (unless {@value #DECODE}{@code =false}), and each record carries its
 * elements' coordinates ({@link ArrayPiece#coordinate}): chunks never written give the fill
 * value (counted
 * by {@link MrapCounter#FILL_ELEMENTS}; a file whose slab selects nothing stored is a task of
 * fill values that reads nothing), and with {@code kind=netcdf} an HDF5 file is a NetCDF-4 file
 * in netCDF's shape (a variable as long as its unlimited dimension, its elements past its own
 * records the fill value).
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public class VariableInputFormat extends FileInputFormat<ArrayIndex, ArrayPiece> {
  // the keys of the table above, as VariableSettings names them
  public static final String KIND = VariableSettings.KIND;
  public static final String VARIABLE = VariableSettings.VARIABLE;
  public static final String SLAB = VariableSettings.SLAB;
  public static final String TILE = VariableSettings.TILE;
  public static final String SELECT = VariableSettings.SELECT;
  public static final String DECODE = VariableSettings.DECODE;
  public static final List<String> KEYS = VariableSettings.KEYS;

  public static void setVariable(Job job, ScienceFiles.Kind kind, String variable, String slab) {
    job.getConfiguration().set(KIND, kind.key());
    job.getConfiguration().set(VARIABLE, variable);
    if (slab != null) {
      job.getConfiguration().set(SLAB, slab);
    }
  }

  @Override
  public List<InputSplit> getSplits(JobContext job) throws IOException {
    List<InputSplit> splits = new ArrayList<>();
    try {
      for (VariableTask task : new VariablePlanner(job.getConfiguration())
          .tasks(listStatus(job))) {
        splits.add(new VariableSplit(task));
      }
    } catch (InvalidSettingsException e) {
      throw AccessInputFormat.refused(e);
    }
    return splits;
  }

  /**
   * The input files; for a kind whose data are stores of objects (Zarr), the stores the input
   * paths name, each a folder, or folders of them.
   */
  @Override
  protected List<FileStatus> listStatus(JobContext job) throws IOException {
    if (ScienceFiles.stores(VariableSettings.kind(job.getConfiguration()))) {
      return HdfsStore.stores(job.getConfiguration(), getInputPaths(job));
    }
    return super.listStatus(job);
  }

  @Override
  public RecordReader<ArrayIndex, ArrayPiece> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new VariableRecordReader();
  }
}
