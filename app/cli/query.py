"""``aer query`` and ``aer demo``: answer questions and print them for a person (or as JSON)."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Annotated, Any

import typer

from app.cli.base import (
    ApiKeyOption,
    ServerOption,
    WorkspaceOption,
    cli,
    demo_dir,
    open_workspace,
    opened_workspaces,
    refused,
    remote,
    route,
    workspace_name,
)
from app.cli.entities import import_entities
from app.cli.ingest import ingest_documents, read_documents

if TYPE_CHECKING:
    from app.container import Resources
    from app.schemas import QueryResponse

SEED_QUESTIONS = ("马斯克创办的公司有哪些？", "2024年苹果在北京发布的产品", "什么是机器学习？")


def citation_line(c: dict[str, Any], passage: str | None = None) -> str:
    """``[1] Guide (guide.md § Setup)``: the document's title, and the file, page or section when known; the
    document's id in front only where it is not the file's name (an upload's id is its file name: the line read
    ``[1] 喂食须知.txt — 喂食须知 (喂食须知.txt)``); ``passage``: which passage of its file it is, where another
    cited one reads alike (``passages_told_apart``)."""
    from graphs.domain import Citation

    where = ", ".join(w for w in (Citation.model_validate(c).location, passage) if w)
    named = c["docId"] not in (c.get("source"), c.get("title"))
    return f"[{c['index']}] " + (f"{c['docId']} — " if named else "") + str(c["title"] or c["docId"]) + (
        f" ({where})" if where else "")


def citation_lines(citations: list[dict[str, Any]]) -> list[str]:
    """Each citation's line; two passages of one file at one place say which passage each is."""
    from graphs.domain import Citation, passages_told_apart

    apart = passages_told_apart([Citation.model_validate(c) for c in citations])
    return [citation_line(c, apart.get(c["index"])) for c in citations]


_SCORE_IN_REASON = re.compile(
    r"\s*\((?:answerability -?[\d.]+ *(?:<|>=|≥|>) *-?[\d.]+|decided by the bilingual lexicon;[^)]*)\)")
"""The score (or the lexicon's note) a reason carries in brackets: the page and the command line show it apart,
once, in words (the page's ``plainReason`` reads the same brackets)."""


def plain_reason(reason: str) -> str:
    """An answerability reason without the score it carries in brackets (shown apart by ``answerability_basis``)."""
    return _SCORE_IN_REASON.sub("", reason).strip()


_DOUBT = "answered although "
"""How the answer layer's reason opens when the score let an answer through although a check found a fault."""


def answerability_line(a: Any) -> str:
    """The answerability for a person: the decision, its reason without the score, and what decided. An answer
    the score let through although a check found a fault reads "answerable, with a doubt: <the fault>: check the
    cited source" (it read "answerable: answered although …")."""
    reason = plain_reason(a.reason)
    if a.decision == "answerable" and reason.startswith(_DOUBT):
        return (f"answerability: answerable, with a doubt: {reason[len(_DOUBT):]}: check the cited source "
                f"({answerability_basis(a)})")
    return f"answerability: {a.decision}: {reason} ({answerability_basis(a)})"


def answerability_basis(a: Any) -> str:
    """What decided the answerability, for a person: the score, a rule, or the bilingual lexicon (whose decision
    is never shown beside the score it overrides: never "answerable (0.01)")."""
    if a.decided_by == "lexicon":
        # the answering line in the other language, or in the question's own (``stated_in_own_language``)
        where = "across languages" if (a.features or {}).get("other_language", 1.0) else "in the question's language"
        return f"by the bilingual lexicon, {where}; the score {a.score:.2f} is not used"
    if a.decided_by == "meaning":
        return f"by meaning, across languages; the score {a.score:.2f} is not used"
    if a.decided_by == "rule":
        return "by a rule"
    return f"score {a.score:.2f}" + (f", answers from {a.threshold:.2f}" if a.threshold is not None else "")


def print_response(question: str, response: QueryResponse) -> None:
    """Print answer, route, relaxations and steps for a person."""
    r = response
    typer.secho(f"\nQ: {question}", bold=True)
    typer.echo(f"A: {r.answer}")
    if r.answer_span:
        typer.echo(f"short answer: {r.answer_span}")
    for line in citation_lines(r.citations):
        typer.echo(f"   {line}")
    if r.answerability is not None:
        typer.echo(answerability_line(r.answerability))
    for h in r.related:
        typer.echo(f"   related (not the answer): {h.doc_id} — {h.title}")
    for fix in r.corrections:
        typer.echo(f"correction: {fix}")
    typer.echo(f"intent: {r.query_analysis.intent} ({r.query_analysis.complexity}); parser: {r.query_analysis.parser}")
    m = r.master
    if m.team_configuration:
        typer.echo(f"team: {m.team_configuration.name} — {m.team_configuration.reason}")
    if m.plan:
        for sq in m.plan.sub_questions:
            after = f" after {', '.join(sq.depends_on)}" if sq.depends_on else ""
            typer.echo(f"   plan {sq.id} [{sq.strategy}{after}]: {sq.question} ({sq.status})")
    for j in m.sufficiency:
        typer.echo(f"   turn {j.turn}: {j.level} → {j.next} — {j.reason}")
    for refl in m.reflections:
        typer.echo(f"   reflect {refl.sub_question}: {refl.action} — {refl.reason}")
    for conflict in r.contradictions:
        typer.echo(f"disagreement: {conflict.fact}: "
                   + "; ".join(f"{cl.value} ({', '.join(cl.hit_ids)})" for cl in conflict.claims))
    for e in r.entity_validation:
        typer.echo(f"entity: {e.text} → {e.standard_name or '(unknown)'} [{e.type}, {e.match} {e.score:.2f}]")
    typer.echo("route: " + " → ".join(d.action for d in r.routing_decision.decisions))
    for d in r.routing_decision.decisions:
        typer.echo(f"   - {d.action}: {d.reason}")
    relaxed = r.routing_decision.relaxed_constraints
    typer.echo("relaxed: " + ("; ".join(f"{x.action} {x.type}={x.value}" + (f"→{x.new_value}" if x.new_value else "")
                                        for x in relaxed) or "none"))
    for x in r.retrieval_details.expansion:
        typer.echo(f"expansion: depth {x.depth} {x.decision} ({x.judge}): {x.reason}")
    if ev := r.retrieval_details.evidence:
        typer.echo(f"evidence ({ev.selector}): {', '.join(s.node for s in ev.selected_nodes) or ev.reasoning}")
    typer.echo(f"results: {r.retrieval_details.ranked_result_count} (reranker: {r.retrieval_details.reranker}); "
               f"llm: {r.llm.note}")
    typer.echo("steps:")
    for s in r.workflow.steps:
        typer.echo(f"   {s.node:<18} {s.duration_ms:8.1f} ms  {s.summary}")
    typer.echo(f"total: {r.workflow.total_duration:.1f} ms")


def run_questions(resources: Resources, questions: list[str], as_json: bool, **options: Any) -> list[QueryResponse]:
    """Answer questions one by one and print them; the responses."""
    from app.schemas import QueryRequest
    from app.services.query import answer

    async def go() -> list[QueryResponse]:
        out = []
        for q in questions:
            response = await answer(resources, QueryRequest(question=q, **options))
            out.append(response)
            if as_json:
                typer.echo(response.model_dump_json(by_alias=True, indent=2))
            else:
                print_response(q, response)
        return out

    import asyncio

    return asyncio.run(go())


def empty_workspace_hint(name: str, listed: list[dict[str, Any]]) -> str | None:
    """What to say when a question found nothing because its workspace holds no documents (``listed``: every
    workspace with its ``documents``): a new user uploaded into one workspace and asked in another (`aer query`
    without --workspace asks `default`) and read only "No relevant information was found"."""
    here = next((w for w in listed if w.get("name") == name), None)
    if here is None or here.get("documents"):
        return None
    others = [f"{w['name']} ({w['documents']})" for w in listed if w.get("name") != name and w.get("documents")]
    hint = f"hint: workspace '{name}' holds no documents yet: load some with `aer ingest PATH --workspace {name}`"
    return hint + (f"; the workspaces with documents: {', '.join(others)}: add --workspace NAME" if others else "")


@cli.command()
def query(
    question: str,
    top_k: Annotated[int, typer.Option("--top-k", min=1, max=50, help="How many passages to keep (1-50).")] = 5,
    mode: Annotated[str, typer.Option(help="auto|structured|semantic|hybrid|graph")] = "auto",
    vector_weight: Annotated[float, typer.Option(min=0.0, max=1.0, help="Graph route: dense weight.")] = 0.5,
    fts_weight: Annotated[float, typer.Option(min=0.0, max=1.0, help="Graph route: BM25 weight.")] = 0.2,
    graph_weight: Annotated[float, typer.Option(min=0.0, max=1.0, help="Graph route: graph weight.")] = 0.3,
    graph_decay: Annotated[float, typer.Option(min=0.01, max=1.0, help="Graph route: decay per hop.")] = 0.5,
    max_depth: Annotated[int, typer.Option(min=0, max=5, help="Graph route: most hops.")] = 3,
    evidence_selection: Annotated[bool, typer.Option(help="Graph route: select the minimal evidence.")] = True,
    team: Annotated[str, typer.Option(help="auto|writer_only|executor_inclusive|planner_enhanced")] = "auto",
    max_turns: Annotated[int, typer.Option(min=1, max=10, help="Planner: most plan rounds.")] = 5,
    as_json: Annotated[bool, typer.Option("--json", help="Print the full API response.")] = False,
    server: ServerOption = None,
    api_key: ApiKeyOption = None,
    workspace: WorkspaceOption = None,
) -> None:
    """Answer one question."""
    from graphs.text.content import EMPTY_QUESTION, EMPTY_QUESTION_MESSAGE, has_content

    if not has_content(question):  # the content check of every question (the API's 422 empty_question)
        raise refused(EMPTY_QUESTION, EMPTY_QUESTION_MESSAGE)
    options: dict[str, Any] = {
        "top_k": top_k, "search_mode": mode, "vector_weight": vector_weight, "fts_weight": fts_weight,
        "graph_weight": graph_weight, "graph_decay": graph_decay, "max_depth": max_depth,
        "use_evidence_selection": evidence_selection, "team": team, "max_turns": max_turns,
    }
    if server := route(server):
        from app.schemas import QueryResponse

        with remote(server, workspace, api_key) as client:
            body = client.query(question, **options)
            listed = client.list_workspaces() if body.get("status") == "no_results" else []
        if as_json:
            typer.echo(json.dumps(body, ensure_ascii=False, indent=2))
        else:
            print_response(question, QueryResponse.model_validate(body))
        if hint := empty_workspace_hint(str(body.get("workspace") or "default"), listed):
            typer.secho(hint, fg="yellow", err=True)
        return
    from app.services.workspaces import list_infos
    from app.settings import Settings

    settings = Settings()
    with opened_workspaces(settings) as workspaces:
        resources = open_workspace(workspaces, workspace_name(workspace, settings))
        responses = run_questions(resources, [question], as_json, **options)
        listed = [i.as_dict() for i in list_infos(workspaces)] if responses[0].status == "no_results" else []
    if hint := empty_workspace_hint(responses[0].workspace, listed):
        typer.secho(hint, fg="yellow", err=True)


DEMO_WORKSPACE = "demo"
"""Where ``aer demo`` loads the bundled corpus (the default workspace stays the user's own)."""


@cli.command()
def demo(
    as_json: Annotated[bool, typer.Option("--json", help="Print each seed question's full API response.")] = False,
    reset: Annotated[bool, typer.Option("--reset", help="Empty the demo workspace first, then load it again.")] = False,
) -> None:
    """Load the bundled demo entities and corpus into the ``demo`` workspace, then answer the three seed
    questions there (ask more with ``--workspace demo``)."""
    from app.cli.base import opened_workspaces

    folder = demo_dir()
    # opening the stores, the entity dictionary and the encoder printed nothing for over a minute on a busy machine
    typer.echo(f"workspace {DEMO_WORKSPACE}: loading the bundled demo ({folder}); the first run opens the stores and "
               "the encoder, up to a minute or two on a busy machine …")
    with opened_workspaces() as workspaces:
        if reset and workspaces.exists(DEMO_WORKSPACE):
            workspaces.delete(DEMO_WORKSPACE)
            typer.echo(f"workspace {DEMO_WORKSPACE}: emptied")
        if not workspaces.exists(DEMO_WORKSPACE):
            workspaces.create(DEMO_WORKSPACE)
        resources = workspaces.get(DEMO_WORKSPACE)
        n = import_entities(resources, folder / "entities.jsonl")
        typer.echo(f"workspace {DEMO_WORKSPACE}: {n} demo entities loaded")
        ingest_documents(resources, read_documents(folder / "corpus.jsonl"))
        run_questions(resources, list(SEED_QUESTIONS), as_json)
