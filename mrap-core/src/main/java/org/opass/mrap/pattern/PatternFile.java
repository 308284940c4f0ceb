package org.opass.mrap.pattern;

import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * A pattern file: the properties of a Hadoop configuration file ({@code <configuration>} of
 * {@code <property>} elements with a {@code <name>} and a {@code <value>}), read strictly and
 * safely. A document type declaration (and so any entity, external or not) and XInclude are
 * refused, so that nothing outside the file is read or echoed; so are other elements, a
 * property without a name or value, and a name given twice.
 */
public final class PatternFile {
  private PatternFile() {
  }

  /**
   * The properties of the file, in order.
   *
   * @param name what to call the file in a message
   * @throws PatternException naming the file (and the line, where the parser gives one)
   */
  public static Map<String, String> read(InputStream in, String name) throws IOException {
    Document doc;
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      f.setXIncludeAware(false);
      f.setExpandEntityReferences(false);
      f.setNamespaceAware(false);
      DocumentBuilder b = f.newDocumentBuilder();
      b.setErrorHandler(null); // errors are thrown, not printed
      doc = b.parse(in);
    } catch (SAXParseException e) {
      throw new PatternException(name, "line " + e.getLineNumber() + ": not a Hadoop "
          + "configuration file (" + firstSentence(e.getMessage()) + ")");
    } catch (SAXException e) {
      throw new PatternException(name, "not a Hadoop configuration file ("
          + firstSentence(e.getMessage()) + ")");
    } catch (ParserConfigurationException e) {
      throw new IOException("no safe XML parser: " + e.getMessage(), e);
    }
    Element root = doc.getDocumentElement();
    if (!root.getTagName().equals("configuration")) {
      throw new PatternException(name, "the top element is <" + root.getTagName()
          + ">, not <configuration>");
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n.getNodeType() != Node.ELEMENT_NODE) {
        continue;
      }
      Element e = (Element) n;
      if (!e.getTagName().equals("property")) {
        throw new PatternException(name, "<" + e.getTagName() + "> in <configuration>: a "
            + "pattern file holds <property> elements only");
      }
      String key = child(e, "name", name);
      String value = child(e, "value", name);
      if (key == null || key.trim().isEmpty()) {
        throw new PatternException(name, "a <property> without a <name>");
      }
      key = key.trim();
      if (value == null) {
        throw new PatternException(name, "property " + key + " has no <value>");
      }
      if (out.put(key, value) != null) {
        throw new PatternException(name, "property " + key + " is set twice");
      }
    }
    return out;
  }

  private static String child(Element property, String tag, String file) {
    NodeList list = property.getElementsByTagName(tag);
    if (list.getLength() > 1) {
      throw new PatternException(file, "a <property> with " + list.getLength() + " <" + tag
          + "> elements");
    }
    return list.getLength() == 0 ? null : list.item(0).getTextContent();
  }

  private static String firstSentence(String message) {
    String m = message == null ? "" : message;
    int dot = m.indexOf(". ");
    return PatternConfig.shorten(dot > 0 ? m.substring(0, dot) : m);
  }
}
