// What each published pom gives a user (dependency:list of a project depending on that artifact alone),
// and how the plain artifact's pom declares what Spark provides. plainArtifact, runtimeArtifact and
// gluecatVersion are script variables set by the runtime module's invoker configuration.
import javax.xml.parsers.DocumentBuilderFactory

def fail = { String msg -> throw new AssertionError(msg) }
def coords = { String file ->
  new File(basedir, file).readLines().collect { it.trim() }
      .findAll { it ==~ /[^: ]+:[^: ]+:[^: ]+:.*/ }
      .collect { it.replaceAll(/ -- .*$/, '') }
}
def providedGroups = ['org.apache.spark', 'io.delta', 'org.apache.hadoop', 'org.scala-lang', 'org.scala-lang.modules']

// 1. plain artifact: gluecat, the SDK's glue and sts modules at compile scope with their own dependencies,
//    and nothing of Spark, Delta, Hadoop or Scala (nor Netty: the SDK's async client is excluded)
def plain = coords('plain.txt')
['software.amazon.awssdk:glue:jar:', 'software.amazon.awssdk:sts:jar:'].each { p ->
  if (!plain.any { it.startsWith(p) && it.endsWith(':compile') }) fail("plain: no $p...:compile in $plain")
}
if (!plain.any { it.startsWith("io.gluecat:${plainArtifact}:jar:") }) fail("plain: gluecat itself missing: $plain")
def leaked = plain.findAll { c -> (providedGroups + ['io.netty']).any { c.startsWith(it + ':') } }
if (leaked) fail("plain: Spark/Delta/Hadoop/Scala reach the user's classpath through gluecat's pom: $leaked")

// 2. runtime artifact: itself and nothing else
def runtime = coords('runtime.txt')
if (runtime.size() != 1 || !runtime[0].startsWith("io.gluecat:${runtimeArtifact}:jar:")) {
  fail("runtime: expected only the runtime jar, got $runtime")
}

// 3. the plain pom declares Spark and Delta as provided (so that a user's build sees what gluecat was built on)
def pom = new File(localRepositoryPath, "io/gluecat/${plainArtifact}/${gluecatVersion}/${plainArtifact}-${gluecatVersion}.pom")
def doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom)
def deps = doc.getElementsByTagName('dependency')
def declared = (0..<deps.length).collect { i ->
  def d = deps.item(i)
  def field = { n -> def l = d.getElementsByTagName(n); l.length > 0 ? l.item(0).textContent.trim() : null }
  [group: field('groupId'), artifact: field('artifactId'), scope: field('scope') ?: 'compile']
}
['org.apache.spark', 'io.delta'].each { g ->
  def mine = declared.findAll { it.group == g }
  if (!mine) fail("plain pom declares nothing of $g")
  def wrong = mine.findAll { it.scope != 'provided' }
  if (wrong) fail("plain pom declares $g other than provided: $wrong")
}
println "published poms: plain -> ${plain.size()} artifacts, runtime -> $runtime"
return true
