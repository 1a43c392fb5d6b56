"""Finding papers and places in the graph for a person's query: search (papers ranked by text, meaning and graph
signals), related (papers related to one paper, with their reasons) and locate (where a figure, section, entity or
phrase is printed). They build on kg.read and on qa's text analysis, and related leaves out what curators rejected
(kg.curation.hidden), so they sit above read, qa and curation, for the API and the CLI."""
