/**
 * The roles and what each may do live in lib/accounts/roles (below both members and api-keys, which
 * bounds a key by its creator's role); this path stays for the pages, routes and domain code that
 * import them from here.
 */

export * from "../roles/roles";
