package org.opass.read.nn;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.FilterConfig;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletRequestWrapper;

/**
 * Keeps a form-encoded POST body for {@link ReadPlanServlet}. {@code curl -d @plan.json} sends
 * JSON as {@code application/x-www-form-urlencoded}, and the first filter that asks such a
 * request for a parameter (the NameNode's authentication filter does, for {@code user.name})
 * makes Jetty read the body as form fields, leaving nothing for the servlet. Mapped first on
 * the endpoint's path, this filter hands on a request whose parameters come from the query
 * string only, so the body stays unread until the servlet reads it as JSON.
 */
final class KeepBodyFilter implements Filter {
  /** Request attribute: set when this filter kept the body. */
  static final String KEPT = KeepBodyFilter.class.getName() + ".kept";

  static boolean isForm(String contentType) {
    return contentType != null && contentType.toLowerCase(Locale.ROOT)
        .startsWith("application/x-www-form-urlencoded");
  }

  @Override
  public void init(FilterConfig config) {
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (request instanceof HttpServletRequest && isForm(request.getContentType())) {
      HttpServletRequest http = (HttpServletRequest) request;
      request.setAttribute(KEPT, Boolean.TRUE);
      chain.doFilter(new QueryParameters(http), response);
    } else {
      chain.doFilter(request, response);
    }
  }

  @Override
  public void destroy() {
  }

  /** The request with the query string's parameters only. */
  static final class QueryParameters extends HttpServletRequestWrapper {
    private final Map<String, String[]> parameters;

    QueryParameters(HttpServletRequest request) {
      super(request);
      parameters = Collections.unmodifiableMap(parse(request.getQueryString()));
    }

    /** {@code a=1&b=2&a=3}; a part that is not valid percent-encoding is kept as it is. */
    static Map<String, String[]> parse(String query) {
      Map<String, List<String>> values = new LinkedHashMap<>();
      if (query != null && !query.isEmpty()) {
        for (String part : query.split("&")) {
          if (part.isEmpty()) {
            continue;
          }
          int eq = part.indexOf('=');
          String name = decode(eq < 0 ? part : part.substring(0, eq));
          String value = eq < 0 ? "" : decode(part.substring(eq + 1));
          values.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }
      }
      Map<String, String[]> out = new LinkedHashMap<>();
      values.forEach((k, v) -> out.put(k, v.toArray(new String[0])));
      return out;
    }

    private static String decode(String s) {
      try {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        return s;
      }
    }

    @Override
    public String getParameter(String name) {
      String[] v = parameters.get(name);
      return v == null ? null : v[0];
    }

    @Override
    public Map<String, String[]> getParameterMap() {
      return parameters;
    }

    @Override
    public Enumeration<String> getParameterNames() {
      return Collections.enumeration(parameters.keySet());
    }

    @Override
    public String[] getParameterValues(String name) {
      String[] v = parameters.get(name);
      return v == null ? null : v.clone();
    }
  }
}
