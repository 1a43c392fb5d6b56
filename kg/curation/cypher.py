"""Every Cypher statement of curation. Parameterised; the only names interpolated are labels and relationship
types that the caller took from the Schema (backtick-quoted), never text a client sent.

Curation events live beside the graph as (:CurationEvent) nodes attributed to a (:Curator) agent, PROV-O
style: (event)-[:WAS_ATTRIBUTED_TO]->(curator) and (event)-[:WAS_REVISION_OF]->(each node it touched).
They are a ledger, like the IngestRun and PaperKGSchema nodes, not extracted content.
"""

from __future__ import annotations

EVENT_LABEL = "CurationEvent"
AGENT_LABEL = "Curator"
LEDGER_LABELS = (EVENT_LABEL, AGENT_LABEL)

# Setting a property to itself takes the element's write lock before it is read, so two curators (or a
# curator and an ingest) changing the same element run one after the other and the second sees the first.
# Before that, a change locks the papers whose graph it touches (kg.ingest.papers.lock_paper), as a re-ingest does
# first: papers (by sha256), then shared nodes (by label and id), then the element, one order for everyone.
LOCK_NODE = "MATCH (n:`{label}` {{id: $id}}) SET n.verification_status = n.verification_status RETURN properties(n) AS props"
LOCK_EDGE = ("MATCH (s:`{source}` {{id: $source}})-[r:`{type}`]->(t:`{target}` {{id: $target}}) "
             "SET r.verification_status = r.verification_status RETURN properties(r) AS props")
READ_NODE = "MATCH (n:`{label}` {{id: $id}}) RETURN properties(n) AS props"
READ_EDGE_PROPS = ("MATCH (s:`{source}` {{id: $source}})-[r:`{type}`]->(t:`{target}` {{id: $target}}) "
                   "RETURN properties(r) AS props")
READ_EDGE = "MATCH (s:`{source}` {{id: $source}})-[r:`{type}`]->(t:`{target}` {{id: $target}}) RETURN elementId(r) AS id"

SET_NODE = "MATCH (n:`{label}` {{id: $id}}) SET n += $props"
SET_EDGE = "MATCH (s:`{source}` {{id: $source}})-[r:`{type}`]->(t:`{target}` {{id: $target}}) SET r += $props"
CREATE_EDGE = """
MATCH (s:`{source}` {{id: $source}}) MATCH (t:`{target}` {{id: $target}})
CREATE (s)-[r:`{type}`]->(t) SET r = $props
RETURN elementId(r) AS id
"""
DELETE_EDGE = "MATCH (s:`{source}` {{id: $source}})-[r:`{type}`]->(t:`{target}` {{id: $target}}) DELETE r"
# The papers of a node's edges: a merge or split moves edges that belong to these papers' graphs.
EDGE_PAPERS_OF_NODE = ("MATCH (n:`{label}` {{id: $id}})-[r]-() WHERE r.paper_sha256 IS NOT NULL "
                       "RETURN collect(DISTINCT r.paper_sha256) AS shas")

# A relabel (kg/curation/relabel.py) creates the node under its new label, or writes back exactly the properties
# an existing node had; its undo deletes the node it created (with the history links to it, nothing else).
CREATE_NODE = "CREATE (n:`{label}`) SET n = $props"
REPLACE_NODE = "MATCH (n:`{label}` {{id: $id}}) SET n = $props"
DELETE_NODE = "MATCH (n:`{label}` {{id: $id}}) DETACH DELETE n"

# The schema relationships of a node, both directions, as (type, outgoing, other end, properties).
EDGES_OF_NODE = """
MATCH (n:`{label}` {{id: $id}})-[r]-(m)
WHERE type(r) IN $types
RETURN type(r) AS type, startNode(r) = n AS outgoing, [l IN labels(m) WHERE l IN $labels][0] AS other_label,
       m.id AS other_id, properties(r) AS props
ORDER BY type, other_id
"""

# The edges a node's evidence is on (an entity has no page of its own): those with a paper and passages, the most
# confident first.
EVIDENCE_EDGES_OF_NODE = """
MATCH (n:`{label}` {{id: $id}})-[r]-()
WHERE type(r) IN $types AND r.paper_sha256 IS NOT NULL AND size(coalesce(r.source_chunk_ids, [])) > 0
RETURN elementId(r) AS edge_id ORDER BY coalesce(r.confidence, 0) DESC, edge_id LIMIT $limit
"""
PAPER_BY_SHA = "MATCH (p:Paper {sha256: $sha}) RETURN p.id AS id, p.title AS title"

CREATE_EVENT = f"""
CREATE (ev:{EVENT_LABEL}) SET ev = $event
MERGE (a:{AGENT_LABEL} {{id: $event.actor}})
CREATE (ev)-[:WAS_ATTRIBUTED_TO]->(a)
"""
LINK_EVENT = (f"MATCH (ev:{EVENT_LABEL} {{{{id: $event}}}}) "
              "MATCH (n:`{label}` {{id: $id}}) CREATE (ev)-[:WAS_REVISION_OF]->(n)")
LOCK_EVENT = f"MATCH (ev:{EVENT_LABEL} {{id: $id}}) SET ev.undone_by = ev.undone_by RETURN properties(ev) AS event"
MARK_UNDONE = f"MATCH (ev:{EVENT_LABEL} {{id: $id}}) SET ev.undone_by = $by"

# History: of one element (any event that touched it), or the whole feed, narrowed by curator, action and time;
# newest first.
HISTORY = f"""
MATCH (ev:{EVENT_LABEL})
WHERE ($element IS NULL OR $element IN ev.elements) AND ($actor IS NULL OR ev.actor = $actor)
  AND ($action IS NULL OR ev.action = $action) AND ($since IS NULL OR ev.at >= $since)
  AND ($before IS NULL OR ev.id < $before)
RETURN properties(ev) AS event ORDER BY ev.id DESC LIMIT $limit
"""
LAST_EVENT = f"""
MATCH (ev:{EVENT_LABEL}) WHERE ev.element = $element AND ev.action = $action AND ev.undone_by IS NULL
RETURN properties(ev) AS event ORDER BY ev.id DESC LIMIT 1
"""

# The needs-attention queue (kg/curation/queue.py). Its groups are sought in the range indexes the ontology puts on
# every curatable label and relationship type (pkg:Element, pkg:Assertion: verification status, contested time,
# confidence), one label or type at a time, never by reading every node or relationship: the work grows with the
# queue, not with the corpus. A group's node rows are review-list rows (REVIEW_ROWS) of the view's filters; each
# label gives at most the page's end (`$offset + $limit`) in the group's order before the labels are merged. An edge belongs to
# its paper, a SAME_AS candidate (which has none) to the papers whose extracted edges point at either end.
# `{label}`, `{type}` and the fragments are the schema's names and the fixed fragments below, never client text.
# group -> (predicate added to the view's filters, the index it is sought in)
QUEUE_NODE_GROUPS = {
    "flagged": ("AND n.verification_status = 'flagged'", "verification_status"),
    "contested": ("AND n.contested_at IS NOT NULL", "contested_at"),
    "low_confidence": ("AND n.verification_status = 'auto' AND n.confidence < $threshold", "confidence"),
    "uncovered": ("AND n.id IN $node_ids", "id"),  # rows of the figures and tables coverage found unlinked
}
# group -> (relationship types: None for all, predicate, the index it is sought in, order)
QUEUE_EDGE_GROUPS = {
    "flagged": (None, "r.verification_status = 'flagged'", "verification_status", "r.confidence"),
    "contested": (None, "r.contested_at IS NOT NULL", "contested_at", "r.contested_at DESC"),
    "same_as": (("SAME_AS",), "r.verification_status = 'auto'", "verification_status",
                "r.confidence DESC, s.id, t.id"),
}


def queue_nodes(labels: list[str], group: str, order: str) -> str:
    """The rows of one node group of the queue, over the whole graph (a view naming a paper starts from the paper
    instead: REVIEW_PAGE)."""
    predicate, prop = QUEUE_NODE_GROUPS[group]
    where = REVIEW_WHERE.format(queue=predicate)
    arms = " UNION ".join(f"MATCH (n:`{label}`) USING INDEX n:`{label}`({prop}) WHERE {where}"
                          f"RETURN n ORDER BY {order}, n.id LIMIT $offset + $limit" for label in labels)
    return "CALL () { " + arms + " }\n" + REVIEW_ROWS.format(order=order, shas=REVIEW_SHAS)


def queue_edges(types: list[str], group: str) -> str:
    """The rows of one edge group of the queue."""
    only, predicate, prop, order = QUEUE_EDGE_GROUPS[group]
    arms = " UNION ".join(f"MATCH (s)-[r:`{rel}`]->(t) USING INDEX r:`{rel}`({prop}) WHERE {predicate} RETURN s, r, t"
                          for rel in (only or types) if rel in types)
    return QUEUE_EDGES.format(arms=arms, order=order)


QUEUE_EDGES = """
CALL () {{ {arms} }}
WITH s, r, t WHERE ($statuses IS NULL OR r.verification_status IN $statuses)
  AND ($min_confidence IS NULL OR r.confidence >= $min_confidence)
  AND ($max_confidence IS NULL OR r.confidence <= $max_confidence)
  AND ($extractor IS NULL OR r.extractor STARTS WITH $extractor)
  AND ($since IS NULL OR r.updated_at >= datetime($since))
  AND ($end_labels IS NULL OR any(l IN labels(s) + labels(t) WHERE l IN $end_labels))
  AND ($text IS NULL OR toLower(coalesce(s.name, s.title, s.id) + ' ' + coalesce(t.name, t.title, t.id)) CONTAINS $text)
  AND ($sha IS NULL OR r.paper_sha256 = $sha OR r.paper_sha256 IS NULL AND EXISTS {{
    UNWIND [s, t] AS x MATCH (x)<-[e]-() WHERE e.paper_sha256 = $sha }})
WITH s, r, t ORDER BY {order}, elementId(r) LIMIT $limit
WITH s, r, t, CASE WHEN r.paper_sha256 IS NOT NULL THEN [r.paper_sha256] ELSE COLLECT {{
    UNWIND [s, t] AS x MATCH (x)<-[e]-() WHERE e.paper_sha256 IS NOT NULL RETURN DISTINCT e.paper_sha256
    LIMIT $max_papers + 1 }} END AS shas
RETURN elementId(r) AS edge_id, type(r) AS type, r.confidence AS confidence, r.verification_status AS status,
       coalesce(s.name, s.title, s.id) AS source_name, coalesce(t.name, t.title, t.id) AS target_name,
       r.contested_reason AS contested_reason, size(shas[..$max_papers]) AS paper_count,
       size(shas) > $max_papers AS more_papers,
       COLLECT {{ MATCH (p:Paper) WHERE p.sha256 IN shas[..$max_papers] RETURN {{id: p.id, title: p.title}} ORDER BY p.id LIMIT 3 }}
         AS papers,
       COLLECT {{ MATCH (ev:CurationEvent) WHERE ev.element = s.id + '|' + type(r) + '|' + t.id
                  RETURN ev.reason ORDER BY ev.id DESC LIMIT 1 }}[0] AS reason
"""

# Duplicate detection (kg/curation/duplicates.py). `{labels}` is the ontology's entity labels joined by '|'.
DUPLICATE_ENTITIES = """
MATCH (n:{labels}) WHERE n.verification_status <> 'rejected'
RETURN [l IN labels(n) WHERE l IN $labels][0] AS label, n.id AS id, n.name AS name, coalesce(n.aliases, []) AS aliases
"""
# The passages that name one of the given entities and hold a parenthesis: where an abbreviation is defined.
DUPLICATE_PASSAGES = """
MATCH (c:Chunk)-[:MENTIONS]->(n:{labels}) WHERE n.id IN $ids AND c.text CONTAINS '('
RETURN DISTINCT c.id AS id, c.text AS text ORDER BY id
"""
# Re-running the detector replaces the automatic candidates (its own and those of ingest-time resolution, whose
# pairs it judges again over the whole graph); a SAME_AS a curator decided (verified, rejected, flagged, edited)
# stays, and its pair is not proposed again.
DELETE_AUTO_CANDIDATES = """
MATCH ()-[r:SAME_AS]->() WHERE r.verification_status = 'auto'
DELETE r RETURN count(*) AS deleted
"""
SAME_AS_PAIRS = "MATCH (a)-[:SAME_AS]->(b) RETURN a.id AS a, b.id AS b"
CREATE_CANDIDATES = """
UNWIND $rows AS row
MATCH (s:`{label}` {{id: row.source}}) MATCH (t:`{label}` {{id: row.target}})
WHERE s.verification_status <> 'rejected' AND t.verification_status <> 'rejected'
CREATE (s)-[r:SAME_AS]->(t) SET r = row.props
RETURN count(r) AS created
"""
# The curation queue of candidates: best first, both ends with their papers and how much evidence they have (the
# extracted edges that point at them, mentions included).
DUPLICATE_COUNT = "MATCH ()-[r:SAME_AS]->() WHERE r.verification_status IN $statuses RETURN count(r) AS total"
DUPLICATE_PAGE = """
MATCH (s)-[r:SAME_AS]->(t) WHERE r.verification_status IN $statuses
WITH s, r, t ORDER BY coalesce(r.score, r.confidence) DESC, s.id, t.id SKIP $offset LIMIT $limit
RETURN elementId(r) AS edge_id, properties(r) AS props,
       [n IN [s, t] | {label: [l IN labels(n) WHERE l IN $labels][0], id: n.id, name: n.name,
                       aliases: coalesce(n.aliases, []), status: n.verification_status,
                       papers: COLLECT {
                           MATCH (n)<-[e]-() WHERE e.paper_sha256 IS NOT NULL
                           WITH DISTINCT e.paper_sha256 AS sha MATCH (p:Paper {sha256: sha})
                           RETURN {id: p.id, title: p.title} ORDER BY p.id },
                       evidence: COUNT { MATCH (n)<-[e]-() WHERE e.paper_sha256 IS NOT NULL }}] AS ends
"""

# The review list (kg/curation/review.py). REVIEW_MATCH selects the nodes of a view with cheap predicates only;
# a node's papers (REVIEW_SHAS: its own paper, then those of the extracted edges pointing at a shared node) are
# collected where a queue, a sort or a page row needs them, at most $max_papers + 1 of them: an entity that thousands
# of papers name would otherwise cost a read of every edge that names it, for every row that shows it (a row says
# `more_papers` when it has more than $max_papers). `{nodes}`, `{queue}`, `{order}` and `{shas}` are filled
# with the fixed fragments below, never with client text.
REVIEW_SHAS = ("[s IN [coalesce(n.paper_sha256, CASE WHEN n:Paper THEN n.sha256 END)] WHERE s IS NOT NULL] + "
               "COLLECT { MATCH (n)<-[e]-() WHERE e.paper_sha256 IS NOT NULL "
               "AND e.paper_sha256 <> coalesce(n.paper_sha256, CASE WHEN n:Paper THEN n.sha256 END, '') "
               "RETURN DISTINCT e.paper_sha256 LIMIT $max_papers + 1 }")
REVIEW_QUEUES = {
    "all": "",
    "low_confidence": "AND n.verification_status = 'auto' AND n.confidence < $threshold",
    "high_impact": f"AND size({REVIEW_SHAS}) >= $min_papers",
    "sample": "",
    "contested": "AND n.contested_at IS NOT NULL",
}
REVIEW_SORTS = {
    "confidence": "n.confidence",
    "name": "toLower(coalesce(n.name, n.title, n.label, n.caption, n.text, n.id))",
    "label": "[l IN labels(n) WHERE l IN $labels][0]",
    "status": "n.verification_status",
    "updated": "n.updated_at",
    "papers": f"size({REVIEW_SHAS})",
    "contested": "n.contested_at",
}
# The nodes a view starts from: every node, or, when the view names a paper, the paper's own nodes (reached from it
# over the paper's edges, which carry its paper_sha256, through its own nodes only) and the shared nodes the paper's
# edges lead to from them, in one step or two (an entity the paper relates to another: DEPENDS_ON); outgoing only,
# since a shared entity that thousands of papers name has thousands of incoming edges and few outgoing ones. That is
# work that grows with the paper, not with the corpus. Each node it yields is the paper, one of the paper's own or
# the target of one of its edges, which is the paper filter itself (checking it again per node would read every
# incoming edge of an entity that thousands of papers name).
REVIEW_NODES = {
    False: "MATCH (n)",
    True: "MATCH ANY SHORTEST (:Paper {sha256: $sha}) (()-[pe]-(b) WHERE pe.paper_sha256 = $sha AND b.paper_sha256 = $sha)* "
          "(own) CALL (own) { RETURN own AS n UNION MATCH (own)-[e]->(n) WHERE e.paper_sha256 = $sha RETURN n UNION "
          "MATCH (own)-[e]->()-[f]->(n) WHERE e.paper_sha256 = $sha AND f.paper_sha256 = $sha RETURN n } "
          "WITH DISTINCT n",
}
REVIEW_WHERE = """any(l IN labels(n) WHERE l IN $labels)
  AND ($statuses IS NULL OR n.verification_status IN $statuses)
  AND ($min_confidence IS NULL OR n.confidence >= $min_confidence)
  AND ($max_confidence IS NULL OR n.confidence <= $max_confidence)
  AND ($extractor IS NULL OR n.extractor STARTS WITH $extractor)
  AND ($since IS NULL OR n.updated_at >= datetime($since))
  AND ($text IS NULL OR toLower(coalesce(n.name, n.title, n.label, n.caption, n.text, n.id)) CONTAINS $text)
  AND ($ids IS NULL OR elementId(n) IN $ids)
  {queue}
"""
REVIEW_MATCH = "\n{nodes} WHERE " + REVIEW_WHERE
# The figures and tables the coverage report finds unlinked (kg.read.coverage: no edge of $links), of the papers not
# rejected or of the one $sha names, as far as the view's filters admit them, in the order of the papers' coverage
# reports (papers by id; figures, then tables; by page and label): the queue's last group.
QUEUE_UNLINKED = """
MATCH (p:Paper) WHERE p.id IS NOT NULL AND p.verification_status <> 'rejected' AND ($sha IS NULL OR p.sha256 = $sha)
MATCH (p)-[h]->(n) WHERE type(h) IN $has AND """ + REVIEW_WHERE.format(
    queue="AND NOT EXISTS { MATCH (n)-[l]->() WHERE type(l) IN $links }") + """
WITH p, n ORDER BY p.id, CASE WHEN n:Figure THEN 0 ELSE 1 END, n.page, n.label, n.id LIMIT $limit
RETURN n.id AS id, [l IN labels(n) WHERE l IN $labels][0] AS kind, n.label AS label, n.page AS page,
       COUNT { MATCH (:Chunk)-[:MENTIONS]->(n) } AS mentions
"""
REVIEW_COUNTS = REVIEW_MATCH + "RETURN n.verification_status AS status, count(*) AS count"
REVIEW_KEYS = REVIEW_MATCH + ("RETURN elementId(n) AS element_id, [l IN labels(n) WHERE l IN $labels][0] AS label, "
                              "n.id AS id")
REVIEW_ROWS = """WITH n ORDER BY {order}, n.id SKIP $offset LIMIT $limit
WITH n, {shas} AS shas
RETURN elementId(n) AS element_id, [l IN labels(n) WHERE l IN $labels][0] AS label, n.id AS id,
       coalesce(n.name, n.title, n.label, left(n.caption, 120), left(n.text, 120), n.id) AS name,
       n.confidence AS confidence, n.verification_status AS status, n.extractor AS extractor,
       toString(n.updated_at) AS updated_at, size(shas[..$max_papers]) AS paper_count,
       size(shas) > $max_papers AS more_papers,
       toString(n.contested_at) AS contested_at, n.contested_by_run AS contested_by_run,
       n.contested_reason AS contested_reason,
       COLLECT {{ MATCH (p:Paper) WHERE p.sha256 IN shas[..$max_papers] RETURN {{id: p.id, title: p.title}} ORDER BY p.id LIMIT 3 }}
         AS papers,
       COLLECT {{ MATCH (ev:CurationEvent) WHERE ev.element = n.id
                  RETURN {{action: ev.action, reason: ev.reason}} ORDER BY ev.id DESC LIMIT 1 }}[0] AS last_event
"""
REVIEW_PAGE = REVIEW_MATCH + REVIEW_ROWS
