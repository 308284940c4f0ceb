/**
 * What every Opass plugin loaded into a Hadoop daemon shares: strict reading of its
 * configuration keys ({@link org.opass.plugin.StrictConf}) and falling back to stock behaviour
 * with one log line ({@link org.opass.plugin.FallbackLog}). Plain Java over Hadoop's
 * {@code Configuration} and SLF4J; in the {@code opass-common} jar, which every Opass jar needs.
 */
package org.opass.plugin;
