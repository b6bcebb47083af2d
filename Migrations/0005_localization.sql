-- Localization (DESIGN.md "Localization"): a session fixes its locale at start, resolved from
-- Accept-Language against the pinned version's locales; NULL for a flow in one language.
ALTER TABLE sessions ADD COLUMN locale text CHECK (locale IS NULL OR char_length(locale) BETWEEN 1 AND 64);
