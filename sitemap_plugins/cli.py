"""The ``sitemap-plugins`` command line (also ``python -m sitemap_plugins``).

One function per command, each a thin call into the library: the command parses its options,
calls the library function that does the work (which prints nothing), and writes the result. Options
that several commands take are declared once (``_add_*_options``) and reused. A new command is a
``_add_<name>`` function registering its parser and a ``_<name>`` function running it, both listed
in :data:`COMMANDS`.

Output follows linters people already use: one ``file:line: CODE: message`` line per finding, then
one summary line, on stdout; ``--format json`` writes one JSON document instead. The exit status
is 0 when clean (warnings allowed), 1 when errors were found, 2 when something could not be read
or the command line was wrong. Progress goes to stderr, and only when stderr is a terminal.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TextIO

from sitemap_plugins import __version__
from sitemap_plugins.core import OPTION_SPECS, SitemapError
from sitemap_plugins.core.report import counted
from sitemap_plugins.core.urls import check_given_base_url
from sitemap_plugins.defaults import DEFAULT_ENDPOINT, DEFAULT_GLOB, DEFAULT_TIMEOUT, VERSIONS_FILE
from sitemap_plugins.generate import (
    LAYOUTS,
    GenerateError,
    flag_name,
    generate_site,
    generate_urls,
    option_kind,
    option_value,
    resolve_settings,
)
from sitemap_plugins.generate.console import ConsoleReporter, ProgressBar, StatusLine

if TYPE_CHECKING:  # each command imports its package when it runs (see main)
    from sitemap_plugins.index import IndexResult
    from sitemap_plugins.validate import Report

PROG: Final = "sitemap-plugins"
JSON_VERSION: Final = 1
"""Bumped only if the shape of ``--format json`` output changes incompatibly."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit status (the console script exits with it).

    Every parser is built, but a command imports its own package only when it runs: ``generate``,
    run after every build in CI, then starts without the validator, the index builder and the
    HTTP client, which took half of its start-up.
    """
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`... | head`): stop quietly, without a second error at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Sitemaps from the command line.",
        epilog=f"Run '{PROG} COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_CommandParser)
    for add in COMMANDS:
        add(commands)
    return parser


class _CommandParser(argparse.ArgumentParser):
    """A command's parser. With ``intermixed``, its positionals may also come after options
    (``index FOLDER --output x.xml a.xml``): argparse fills a list of positionals from one
    run of arguments and leaves those after an option unrecognised, so a command whose
    positionals are lists parses as ``parse_intermixed_args`` does, options first, then every
    positional wherever it stands."""

    def __init__(self, *args: Any, intermixed: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.intermixed = intermixed
        self._parsing = False

    def parse_known_args(  # type: ignore[override]  # one signature for typeshed's overloads
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        # The command's parser is called through this method; argparse's intermixed parsing
        # calls it again itself (on older Pythons), for a plain parse.
        if not self.intermixed or self._parsing:
            return super().parse_known_args(args, namespace)
        self._parsing = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._parsing = False


# --------------------------------------------------------------------------------------------
# Options shared by commands


def _add_output_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        "--output-format",
        dest="format",
        choices=("text", "json"),
        default="text",
        help="text: one line per finding and a summary (default); json: one document, for CI",
    )


def _add_site_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--base-url",
        type=_base_url,
        metavar="URL",
        help="the URL a local folder is served at (for a file: the folder holding it); "
        "enables the scope check and finds an index's children on disk",
    )


def _add_network_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--timeout",
        type=_seconds,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"for each HTTP request (default: {DEFAULT_TIMEOUT:g})",
    )


def _base_url(text: str) -> str:
    try:
        return check_given_base_url(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{text!r}: expected {error}") from None


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a number of seconds up to 3600")
    return value


# --------------------------------------------------------------------------------------------
# validate


def _add_validate(commands: Any) -> None:
    parser = commands.add_parser(
        "validate",
        intermixed=True,
        help="check sitemap files, folders or URLs",
        description="Check sitemaps against the protocol. A TARGET is a sitemap file (urlset, "
        "index, .gz, text), a folder (its robots.txt Sitemap: lines, else its sitemap.xml) or "
        "an http(s) URL. An index's children are checked too: found on disk beside a local "
        "index, fetched (once each) for a URL. Exit status: 0 clean (warnings allowed), "
        "1 errors found, 2 a target could not be read.",
    )
    parser.add_argument("targets", nargs="+", metavar="TARGET", help="file, folder or URL")
    _add_site_options(parser)
    _add_network_options(parser)
    _add_output_options(parser)
    parser.set_defaults(run=_validate)


def _validate(args: argparse.Namespace) -> int:
    from sitemap_plugins.validate import validate

    progress = StatusLine(sys.stderr)
    try:
        report = validate(
            args.targets, base_url=args.base_url, timeout=args.timeout, progress=progress
        )
    finally:
        progress.clear()
    if args.format == "json":
        _write_json(report, sys.stdout)
    else:
        _write_text(report, sys.stdout)
    return report.exit_status


# --------------------------------------------------------------------------------------------
# generate


def _add_generate(commands: Any) -> None:
    parser = commands.add_parser(
        "generate",
        help="write a true sitemap for a built site, or for a URL list",
        description="Write the sitemap of a site any generator built: every HTML page at its "
        "served URL, left out by the plugins' rules (404, noindex, redirect stubs, a canonical "
        "URL elsewhere, --exclude, the source's sitemap front matter), lastmod from a date the "
        "page declares, else the git date of its source (--source, --layout), else of the "
        "committed HTML file. With --urls, the "
        "pages are the lines of a URL list instead (URL, optionally a tab and a lastmod). "
        "Run with no argument in a folder holding zensical.toml, mkdocs.toml or mkdocs.yml, "
        "it reads the site URL and folders from there. Options also come from "
        "sitemap-plugins.toml (or [tool.sitemap-plugins] in pyproject.toml), under the same "
        "names.",
        epilog="Exit status: 0 sitemap written (warnings allowed); 1 no sitemap written (strict "
        "mode saw warnings, nothing to list, a file could not be written); 2 an input could not "
        "be read or the command line or config is wrong.",
    )
    parser.add_argument(
        "site_dir",
        nargs="?",
        metavar="SITE_DIR",
        help="the built site (with --urls: the folder to write into); default: the host "
        "config's site_dir",
    )
    parser.add_argument(
        "--urls", metavar="FILE", help="a URL list to write the sitemap of ('-': standard input)"
    )
    parser.add_argument("--source", metavar="DIR", help="the folder of the pages' sources")
    parser.add_argument(
        "--layout",
        choices=list(LAYOUTS),
        help="how built pages map to sources: mkdocs/zensical (x/index.html is x.md or "
        "x/index.md), hugo (content/), jekyll (incl. _posts), html (each page its own source)",
    )
    parser.add_argument(
        "--keep-index-html",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="list dir/index.html as is, for servers that do not serve it at dir/",
    )
    parser.add_argument(
        "--config", metavar="FILE", help="a TOML file of options (default: sitemap-plugins.toml)"
    )
    parser.add_argument(
        "--no-host-config",
        dest="host_config",
        action="store_false",
        help="do not read zensical.toml, mkdocs.toml or mkdocs.yml",
    )
    options = parser.add_argument_group(
        "sitemap options", "The plugins' options, under the same names as in the config file."
    )
    for spec in OPTION_SPECS:
        kind = option_kind(spec)
        dest = "option_" + spec.name
        if kind == "switch":
            options.add_argument(
                flag_name(spec),
                dest=dest,
                action=argparse.BooleanOptionalAction,
                default=None,
                help=spec.help,
            )
        else:
            extra = " Repeatable; items may be comma-separated, or JSON." if kind == "list" else ""
            options.add_argument(
                flag_name(spec),
                dest=dest,
                action="append",
                metavar=spec.name.upper(),
                help=spec.help + extra,
            )
    parser.set_defaults(run=_generate)


def _generate(args: argparse.Namespace) -> int:
    bar = ProgressBar(sys.stderr, "URLs" if args.urls else "pages")
    reporter = ConsoleReporter(sys.stderr, bar)
    try:
        flags: dict[str, object] = {}
        for spec in OPTION_SPECS:
            given = getattr(args, "option_" + spec.name)
            if given is not None:
                flags[spec.name] = given if isinstance(given, bool) else option_value(spec, given)
        settings = resolve_settings(
            flags=flags,
            site_dir=args.site_dir,
            source=args.source,
            layout=args.layout,
            keep_index_html=args.keep_index_html,
            urls=args.urls,
            config=args.config,
            use_host_config=args.host_config,
        )
        if settings.urls is not None:
            summary = generate_urls(settings, reporter, stdin=sys.stdin.buffer, progress=bar)
        else:
            summary = generate_site(settings, reporter, progress=bar)
    except GenerateError as error:
        bar.clear()
        print(f"{PROG} generate: error: {error}", file=sys.stderr)
        return 2
    except SitemapError as error:
        bar.clear()
        print(f"{PROG} generate: error: {error}", file=sys.stderr)
        return 2 if reporter.unreadable else 1
    bar.clear()
    print(summary.line())
    if reporter.unreadable:  # the rest is written; the run still saw less than the site
        return 2
    return 0 if summary.top is not None else 1


# --------------------------------------------------------------------------------------------
# index


def _add_index(commands: Any) -> None:
    parser = commands.add_parser(
        "index",
        intermixed=True,
        help="write one sitemap index over the builds in a folder (versions, languages)",
        description="Write one sitemap index (FOLDER/sitemap.xml, or --output) over the "
        "sitemaps of the builds under FOLDER: mike's version folders, Read the Docs' "
        "en/latest and en/1.0, one folder per language. A child that is an index is "
        "replaced by its children; each is dated by the newest lastmod it holds, and checked "
        "with validate's rules at its own URL: one that breaks them (URLs outside its folder, "
        "a build made for another base URL) is refused and left out. Exit status: 0 written, "
        "1 a sitemap was refused (the others are indexed) or the index broke a rule (nothing "
        "written), 2 nothing could be done (see the messages).",
    )
    parser.add_argument("folder", metavar="FOLDER", help="the folder holding the builds")
    parser.add_argument(
        "sitemaps",
        nargs="*",
        metavar="SITEMAP",
        help="sitemap files to list, relative to FOLDER (instead of, or with, --glob)",
    )
    parser.add_argument(
        "--base-url",
        type=_base_url,
        required=True,
        metavar="URL",
        help="the URL FOLDER is served at",
    )
    parser.add_argument(
        "--glob",
        action="append",
        default=[],
        metavar="PATTERN",
        help=f"which files under FOLDER are sitemaps to list (default: {DEFAULT_GLOB!r}); "
        "may be repeated",
    )
    parser.add_argument(
        "--output",
        default="sitemap.xml",
        metavar="NAME",
        help="the index's file name, relative to FOLDER (default: sitemap.xml)",
    )
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        type=_names,
        metavar="NAMES",
        help="list only these versions or folders: names or globs, comma-separated "
        "('latest,stable', 'v2.*'); mike's aliases stand for their version",
    )
    parser.add_argument(
        "--exclude",
        action="append",
        default=[],
        type=_names,
        metavar="NAMES",
        help="leave out these versions or folders (names or globs, comma-separated)",
    )
    parser.add_argument(
        "--versions",
        type=Path,
        metavar="FILE",
        help=f"mike's {VERSIONS_FILE} (default: FOLDER/{VERSIONS_FILE}, when there is one)",
    )
    robots = parser.add_mutually_exclusive_group()
    robots.add_argument(
        "--robots-txt",
        dest="robots_txt",
        action="store_true",
        default=None,
        help="add the index to FOLDER/robots.txt (default: when --base-url is a host's root)",
    )
    robots.add_argument(
        "--no-robots-txt", dest="robots_txt", action="store_false", help="leave robots.txt alone"
    )
    parser.set_defaults(run=_index)


def _index(args: argparse.Namespace) -> int:
    from sitemap_plugins.index import Level, build_index

    progress = StatusLine(sys.stderr, verb="reading")
    try:
        result = build_index(
            Path(args.folder),
            base_url=args.base_url,
            patterns=args.glob,
            names=args.sitemaps,
            output=args.output,
            only=[name for names in args.only for name in names],
            exclude=[name for names in args.exclude for name in names],
            versions=args.versions,
            robots_txt=args.robots_txt,
            progress=progress,
        )
    finally:
        progress.clear()
    for note in result.notes:
        _index_line(f"{note.source}: {note.message}", problem=note.level is not Level.INFO)
    _index_line(_index_summary(result), problem=result.written is None)
    return result.exit_status


def _index_line(line: str, *, problem: bool) -> None:
    """One line of ``index``'s report: what it listed and wrote on stdout, every problem (a
    warning, a refused child, no index written) on stderr, as ``generate`` and ``submit`` do,
    so that a script keeps the report and a CI log still shows why a run failed. Each line is
    flushed, so that a terminal showing both streams shows them in order."""
    stream = sys.stderr if problem else sys.stdout
    stream.write(line + "\n")
    stream.flush()


def _index_summary(result: IndexResult) -> str:
    refused = ""
    if result.refused:
        refused = f"; {counted(result.refused, 'sitemap')} refused (see above)"
    if result.written is None:
        return f"No index written{refused}."
    listed = counted(len(result.children), "sitemap")
    return f"Wrote {result.written}: an index of {listed}, served at {result.url}{refused}."


def _names(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise argparse.ArgumentTypeError(f"{text!r}: expected names or globs, comma-separated")
    return names


# --------------------------------------------------------------------------------------------
# submit


def _add_submit(commands: Any) -> None:
    parser = commands.add_parser(
        "submit",
        help="tell search engines which URLs changed (IndexNow)",
        description="Submit the URLs of a sitemap to IndexNow (Bing, Yandex, Seznam, Naver): "
        "with --since PREVIOUS, the URLs added, those whose lastmod moved, and those removed "
        "since then; with --all, every URL. SITEMAP and PREVIOUS are files, folders (their "
        "sitemap.xml) or http(s) URLs; an index is followed, and a URL outside a sitemap's "
        "folder or host is left out. Requests hold one host and at "
        "most 10,000 URLs; 429 and 5xx answers are tried again, within bounds. Exit status: "
        "0 accepted (or a dry run), 1 the endpoint refused or the key file is not served, "
        "2 a sitemap could not be read or the command line was wrong.",
    )
    parser.add_argument("sitemap", metavar="SITEMAP", help="the new sitemap: file, folder or URL")
    parser.add_argument(
        "--key",
        default=os.environ.get("INDEXNOW_KEY") or None,
        help="the IndexNow key (default: $INDEXNOW_KEY); never shown in full",
    )
    parser.add_argument(
        "--key-location",
        type=_http_url,
        metavar="URL",
        help="where the key file is served (default: beside the sitemap, where the indexnow_key "
        "option writes it, else in a parent folder up to https://HOST/KEY.txt)",
    )
    parser.add_argument(
        "--endpoint",
        type=_http_url,
        default=DEFAULT_ENDPOINT,
        metavar="URL",
        help=f"the IndexNow endpoint (default: {DEFAULT_ENDPOINT}, shared by the engines)",
    )
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--since",
        metavar="PREVIOUS",
        help="the sitemap live before this deploy (file, folder or URL): send only what changed",
    )
    which.add_argument("--all", action="store_true", help="send every URL of SITEMAP")
    parser.add_argument(
        "--dry-run", action="store_true", help="show the requests that would be sent; send none"
    )
    parser.add_argument(
        "--no-check-key",
        dest="check_key",
        action="store_false",
        help="post without first checking that the key file is served",
    )
    parser.add_argument(
        "--base-url",
        type=_base_url,
        metavar="URL",
        help="the URL of the folder holding a local index, to find its children on disk",
    )
    _add_network_options(parser)
    parser.set_defaults(run=_submit)


def _submit(args: argparse.Namespace) -> int:
    from sitemap_plugins.indexnow import IndexNowClient, PlanError
    from sitemap_plugins.indexnow import plan as submit_plan
    from sitemap_plugins.indexnow import preview as submit_preview
    from sitemap_plugins.indexnow import send as submit_send

    progress = StatusLine(sys.stderr, verb="reading")
    try:
        found = submit_plan(
            args.sitemap,
            key=args.key,
            key_location=args.key_location,
            since=args.since,
            all_urls=args.all,
            base_url=args.base_url,
            timeout=args.timeout,
            progress=progress,
        )
    except PlanError as error:
        print(f"{PROG} submit: {error}", file=sys.stderr)
        return 2
    finally:
        progress.clear()
    out = sys.stdout
    for line in found.lines:
        out.write(line + "\n")
    if not found.requests:
        out.write("Nothing to submit.\n")
        return 0
    requests = counted(len(found.requests), "request")
    if args.dry_run:
        for line in submit_preview(found, args.key, args.endpoint, check_key_file=args.check_key):
            out.write(line + "\n")
        out.write(f"Dry run: {counted(found.urls, 'URL')} in {requests}; nothing sent.\n")
        return 0
    client = IndexNowClient(
        args.endpoint, timeout=args.timeout, log=lambda line: print(line, flush=True)
    )
    progress = StatusLine(sys.stderr, verb="sending")
    try:
        sent = submit_send(
            found, client, key=args.key, check_key_file=args.check_key, timeout=args.timeout,
            progress=progress,
        )  # fmt: skip
    finally:
        progress.clear()
    for line in sent.lines:
        out.write(line + "\n")
    if sent.exit_status == 0:
        out.write(f"Submitted {counted(sent.accepted, 'URL')} to {args.endpoint} in {requests}.\n")
    else:
        out.write(f"Stopped: {counted(sent.accepted, 'URL')} of {found.urls:,} submitted.\n")
    out.flush()
    return sent.exit_status


def _http_url(text: str) -> str:
    if not text.lower().startswith(("http://", "https://")) or len(text) < 10:
        raise argparse.ArgumentTypeError(f"{text!r}: expected an http(s) URL")
    return text


COMMANDS: Final[tuple[Callable[[Any], None], ...]] = (
    _add_validate,
    _add_generate,
    _add_index,
    _add_submit,
)
"""Each command's parser, in the order ``--help`` lists them."""


# --------------------------------------------------------------------------------------------
# Writing a report


def _write_text(report: Report, stream: TextIO) -> None:
    for finding in report.findings:
        where = finding.source if finding.line is None else f"{finding.source}:{finding.line}"
        stream.write(f"{where}: {finding.code}: {finding.message}\n")
    stream.write(_summary(report) + "\n")
    stream.flush()


def _summary(report: Report) -> str:
    files = counted(len(report.documents), "file")
    urls = counted(report.urls, "URL")
    problems = [
        counted(number, noun)
        for number, noun in (
            (report.unreadable, "read failure"),
            (report.errors, "error"),
            (report.warnings, "warning"),
        )
        if number
    ]
    if not problems:
        return f"All checks passed: {files}, {urls}."
    listed = ", ".join(problems[:-1]) + " and " + problems[-1] if len(problems) > 1 else problems[0]
    return f"Found {listed} in {files} ({urls})."


def _write_json(report: Report, stream: TextIO) -> None:
    document = {
        "version": JSON_VERSION,
        "exit_status": report.exit_status,
        "summary": {
            "files": len(report.documents),
            "urls": report.urls,
            "unreadable": report.unreadable,
            "errors": report.errors,
            "warnings": report.warnings,
        },
        "documents": [
            {
                "source": doc.source,
                "url": doc.url,
                "kind": doc.kind,
                "entries": doc.entries,
                "bytes": doc.bytes,
            }
            for doc in report.documents
        ],
        "findings": [
            {
                "code": finding.code,
                "severity": finding.severity.value,
                "source": finding.source,
                "line": finding.line,
                "column": finding.column,
                "message": finding.message,
            }
            for finding in report.findings
        ],
        "codes": {
            check.value: check.summary
            for check in sorted({finding.check for finding in report.findings})
        },
    }
    json.dump(document, stream, indent=2, ensure_ascii=False)
    stream.write("\n")
    stream.flush()
