/**
 * A server sentence in the reader's language, with the machine words it carries (a tool's error,
 * a model's own words) shown verbatim as code after it.
 */
export function ServerSentence({ sentence, detail, separator }: { sentence: string; detail?: string; separator: string }) {
  if (detail === undefined) return <>{sentence}</>;
  return (
    <>
      {sentence && `${sentence}${separator}`}
      <code className="server-detail">{detail}</code>
    </>
  );
}
