/* A strict JSON checker (RFC 8259), iterative: an explicit stack of the
 * open brackets, so that deeply nested output cannot overflow the C
 * stack.  See json_check.h. */
#include "json_check.h"

#include <stdbool.h>
#include <stdlib.h>

typedef struct cursor {
    const unsigned char *p, *end;
} cursor;

static void skip_ws(cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        c->p++;
}

static bool is_digit(const cursor *c)
{
    return c->p < c->end && *c->p >= '0' && *c->p <= '9';
}

static bool is_hex(unsigned char ch)
{
    return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
}

/* One UTF-8 sequence of 2 to 4 bytes at c->p (its first byte >= 0x80):
 * no overlong forms, no surrogates, nothing above U+10FFFF. */
static const char *utf8(cursor *c)
{
    unsigned char b = *c->p;
    unsigned n;
    unsigned long cp;
    if (b >= 0xc2 && b <= 0xdf)
        n = 1, cp = b & 0x1f;
    else if (b >= 0xe0 && b <= 0xef)
        n = 2, cp = b & 0x0f;
    else if (b >= 0xf0 && b <= 0xf4)
        n = 3, cp = b & 0x07;
    else
        return "invalid UTF-8 in a string";
    if ((size_t)(c->end - c->p) <= n)
        return "invalid UTF-8 in a string";
    for (unsigned i = 1; i <= n; i++) {
        if ((c->p[i] & 0xc0) != 0x80)
            return "invalid UTF-8 in a string";
        cp = cp << 6 | (c->p[i] & 0x3f);
    }
    if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10ffff ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return "invalid UTF-8 in a string";
    c->p += n + 1;
    return NULL;
}

/* A string, c->p at its opening quote. */
static const char *string(cursor *c)
{
    c->p++;
    while (c->p < c->end) {
        unsigned char ch = *c->p;
        if (ch == '"') {
            c->p++;
            return NULL;
        }
        if (ch < 0x20)
            return "control character in a string";
        if (ch >= 0x80) {
            const char *e = utf8(c);
            if (e)
                return e;
            continue;
        }
        if (ch != '\\') {
            c->p++;
            continue;
        }
        if (++c->p == c->end)
            return "unterminated string";
        switch (*c->p) {
        case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
            c->p++;
            break;
        case 'u':
            c->p++;
            for (int i = 0; i < 4; i++, c->p++)
                if (c->p == c->end || !is_hex(*c->p))
                    return "\\u needs four hexadecimal digits";
            break;
        default:
            return "invalid escape in a string";
        }
    }
    return "unterminated string";
}

static const char *number(cursor *c)
{
    if (*c->p == '-')
        c->p++;
    if (!is_digit(c))
        return "a number needs a digit";
    if (*c->p == '0') {
        c->p++;
        if (is_digit(c))
            return "a number cannot start with 0";
    } else {
        while (is_digit(c))
            c->p++;
    }
    if (c->p < c->end && *c->p == '.') {
        c->p++;
        if (!is_digit(c))
            return "a fraction needs a digit";
        while (is_digit(c))
            c->p++;
    }
    if (c->p < c->end && (*c->p == 'e' || *c->p == 'E')) {
        c->p++;
        if (c->p < c->end && (*c->p == '+' || *c->p == '-'))
            c->p++;
        if (!is_digit(c))
            return "an exponent needs a digit";
        while (is_digit(c))
            c->p++;
    }
    return NULL;
}

static bool literal(cursor *c, const char *word)
{
    const unsigned char *p = c->p;
    for (; *word; word++, p++)
        if (p == c->end || *p != (unsigned char)*word)
            return false;
    c->p = p;
    return true;
}

/* A scalar value (string, number, literal) at c->p. */
static const char *scalar(cursor *c)
{
    if (c->p == c->end)
        return "a value expected, found the end";
    unsigned char ch = *c->p;
    if (ch == '"')
        return string(c);
    if (ch == '-' || (ch >= '0' && ch <= '9'))
        return number(c);
    if (literal(c, "true") || literal(c, "false") || literal(c, "null"))
        return NULL;
    return "a value expected";
}

/* After '{' or ',' in an object: a member's "key" and ':'. */
static const char *member_key(cursor *c)
{
    skip_ws(c);
    if (c->p == c->end || *c->p != '"')
        return "a member's name (a string) expected";
    const char *e = string(c);
    if (e)
        return e;
    skip_ws(c);
    if (c->p == c->end || *c->p != ':')
        return "':' expected after a member's name";
    c->p++;
    return NULL;
}

static const char *check(cursor *c, char **stack, size_t *cap)
{
    size_t depth = 0;
    for (;;) {
        /* a value */
        skip_ws(c);
        if (c->p < c->end && (*c->p == '{' || *c->p == '[')) {
            char open = (char)*c->p++;
            if (depth == *cap) {
                size_t ncap = *cap ? *cap * 2 : 64;
                char *s = realloc(*stack, ncap);
                if (!s)
                    return "out of memory";
                *stack = s;
                *cap = ncap;
            }
            (*stack)[depth++] = open;
            skip_ws(c);
            if (c->p < c->end && *c->p == (open == '{' ? '}' : ']')) {
                c->p++;
                depth--;
            } else {
                if (open == '{') {
                    const char *e = member_key(c);
                    if (e)
                        return e;
                }
                continue;
            }
        } else {
            const char *e = scalar(c);
            if (e)
                return e;
        }
        /* after a value: ',' and the next, or the container closes */
        for (;;) {
            skip_ws(c);
            if (depth == 0)
                return c->p == c->end ? NULL : "text after the value";
            char open = (*stack)[depth - 1];
            char close = open == '{' ? '}' : ']';
            if (c->p == c->end)
                return open == '{' ? "unterminated object" : "unterminated array";
            if (*c->p == close) {
                c->p++;
                depth--;
                continue;
            }
            if (*c->p != ',')
                return open == '{' ? "',' or '}' expected in an object" : "',' or ']' expected in an array";
            c->p++;
            if (open == '{') {
                const char *e = member_key(c);
                if (e)
                    return e;
            }
            break;
        }
    }
}

const char *test_json_check(const char *text, size_t len, size_t *at)
{
    cursor c = { (const unsigned char *)text, (const unsigned char *)text + len };
    char *stack = NULL;
    size_t cap = 0;
    const char *e = check(&c, &stack, &cap);
    free(stack);
    if (at)
        *at = (size_t)((const char *)c.p - text);
    return e;
}
