import names from './time-zone-names.json';

/**
 * Every zone and link name of the IANA time zone database (release 2025b, its `tzdata.zi`)
 * that Intl accepts (all but `Factory`): exactly what a partner may give as an
 * organization's `timeZone`, and the list docs/openapi.json publishes, so the server and
 * validators built from the document (Prism, generated clients) accept the same names.
 * Aliases are listed because partners hold them (`Asia/Kolkata` is canonical in IANA, a
 * link in ICU; `US/Eastern` is old but common). A unit test checks Intl knows each one.
 * The names are data, so they live in time-zone-names.json.
 */
export const IANA_TIME_ZONE_NAMES: readonly string[] = names;
