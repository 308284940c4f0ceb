/**
 * Strict reads of our configuration keys ({@link org.opass.conf.StrictConf}): a value that does
 * not parse or is out of range is an error naming the key, never a silent default. Plain Java
 * over Hadoop's {@code Configuration}; in the {@code opass-common} jar, which every Opass jar
 * needs.
 */
package org.opass.conf;
