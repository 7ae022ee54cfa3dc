/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The store's schema, built into the program from sql/NNN-name.sql (see
 * sql/sql2c.sh): file i brings the database from version i to i + 1.
 */
#ifndef UAPID_SCHEMA_H
#define UAPID_SCHEMA_H

extern const char *const ud_schema_sql[];
extern const unsigned ud_schema_count;

#endif /* UAPID_SCHEMA_H */
