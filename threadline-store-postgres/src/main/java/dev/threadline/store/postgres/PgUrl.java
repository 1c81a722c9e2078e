package dev.threadline.store.postgres;

import dev.threadline.core.error.InvalidInputException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * Where a store's database is: a {@code postgresql://[user[:password]@]host[:port]/database[?params]}
 * URL (also {@code postgres://}), or a pgjdbc {@code jdbc:postgresql://...} URL passed on as it is.
 * The user and password of the first form become connection properties (pgjdbc's URL has no user
 * part); {@link #shown()} is the URL without the password, for messages. Immutable.
 *
 * @param jdbcUrl  the URL pgjdbc connects to
 * @param user     the user from the URL, or null (then pgjdbc's own default or a {@code user} parameter)
 * @param password the password from the URL, or null
 * @param shown    the URL as messages show it (never the password)
 */
record PgUrl(String jdbcUrl, String user, String password, String shown) {
    private static final String FORM = "expected postgresql://[user[:password]@]host[:port]/database[?param=value&...]"
            + " or jdbc:postgresql://host[:port]/database";

    /** @throws InvalidInputException naming the store url when it is not one of the two forms */
    static PgUrl parse(String url) {
        if (url == null || url.isBlank()) {
            throw new InvalidInputException("store url", "is missing; " + FORM);
        }
        String text = url.strip();
        if (text.startsWith("jdbc:postgresql:")) {
            return new PgUrl(text, null, null, hidePassword(text));
        }
        String rest;
        if (text.startsWith("postgresql://")) {
            rest = text.substring("postgresql://".length());
        } else if (text.startsWith("postgres://")) {
            rest = text.substring("postgres://".length());
        } else {
            throw new InvalidInputException("store url", "'" + hidePassword(text) + "' is not a PostgreSQL URL; " + FORM);
        }
        URI uri;
        try {
            uri = new URI("postgresql://" + rest);
        } catch (URISyntaxException e) {
            throw new InvalidInputException("store url", "'" + hidePassword(text) + "' is malformed (" + e.getReason() + "); " + FORM);
        }
        String host = uri.getHost();
        String path = uri.getRawPath();
        if (host == null || host.isBlank()) {
            throw new InvalidInputException("store url", "'" + hidePassword(text) + "' names no host; " + FORM);
        }
        if (path == null || path.length() < 2 || path.indexOf('/', 1) >= 0) {
            throw new InvalidInputException("store url", "'" + hidePassword(text) + "' names no database (one path segment); " + FORM);
        }
        String user = null;
        String password = null;
        if (uri.getRawUserInfo() != null) {
            String info = uri.getRawUserInfo();
            int colon = info.indexOf(':');
            user = decode(colon < 0 ? info : info.substring(0, colon));
            password = colon < 0 ? null : decode(info.substring(colon + 1));
        }
        String port = uri.getPort() < 0 ? "" : ":" + uri.getPort();
        String query = uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery();
        String hostPort = (host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host) + port;
        String jdbc = "jdbc:postgresql://" + hostPort + path + query;
        String shown = "postgresql://" + (user == null ? "" : user + "@") + hostPort + path;
        return new PgUrl(jdbc, user, password, shown);
    }

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** The text with anything between "://user:" and "@" and any password parameter masked. */
    private static String hidePassword(String text) {
        return text.replaceAll("(://[^:/@]*:)[^@/]*@", "$1***@").replaceAll("(?i)(password=)[^&]*", "$1***");
    }
}
